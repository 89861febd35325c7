import type { RunStatus } from '../../lib/api/schemas/automation';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { firstRow } from './first-row';
import { LATEST_IN_BATCH, RUN_COLUMNS, type RunRow } from './runs';
import { type Reader, scopeOfBatch } from './scope';

export interface BatchRow {
  seq: number;
  id: string;
  name: string | null;
  created_at: Date;
  paused: boolean;
  /** Each profile's latest run in the batch, counted by status. */
  counts: Partial<Record<RunStatus, number>>;
  /** Times its runs were queued again after a passing failure. */
  retried: number;
  /** When its first run started; null before. */
  first_started_at: Date | null;
}

const BATCH_COLUMNS = `b.seq, b.id, b.name, b.created_at, b.paused,
  coalesce((select jsonb_object_agg(status, n) from (
     select status, count(*)::int as n from automation_runs
      where batch_id = b.id and ${LATEST_IN_BATCH} group by status) counted), '{}'::jsonb) as counts,
  (select coalesce(sum(retries), 0)::int from automation_runs where batch_id = b.id) as retried,
  (select min(started_at) from automation_runs where batch_id = b.id) as first_started_at`;

export async function insertBatch(
  tx: Queryable,
  clock: Clock,
  accountId: string,
  name: string | null,
): Promise<string> {
  const id = newId('bat');
  await tx.query(
    'insert into automation_batches (id, account_id, name, created_at) values ($1, $2, $3, $4)',
    [id, accountId, name, clock.now()],
  );
  return id;
}

/**
 * The account's batch with its runs counted, each profile by its latest run; null for no such batch, or one with a
 * profile outside the reader's scope.
 */
export async function findBatch(db: Queryable, reader: Reader, id: string): Promise<BatchRow | null> {
  const params: unknown[] = [reader.id, id];
  const where = ['b.account_id = $1 and b.id = $2', ...scopeOfBatch(reader, params, 'b.id')];
  return firstRow(
    db.query<BatchRow>(
      `select ${BATCH_COLUMNS} from automation_batches b where ${where.join(' and ')}`,
      params,
    ),
  );
}

/** A page of the account's batches, newest first, each counted as findBatch counts one. */
export async function listBatches(
  db: Queryable,
  reader: Reader,
  options: { limit: number; after: number | null },
): Promise<BatchRow[]> {
  const params: unknown[] = [reader.id, options.limit + 1, options.after];
  const where = [
    'b.account_id = $1 and ($3::bigint is null or b.seq < $3::bigint)',
    ...scopeOfBatch(reader, params, 'b.id'),
  ];
  return db.query<BatchRow>(
    `select ${BATCH_COLUMNS} from automation_batches b where ${where.join(' and ')} order by b.seq desc limit $2`,
    params,
  );
}

/** Pauses or resumes the batch: while paused, its runs that wait for room stay in line. */
export async function setBatchPaused(tx: Queryable, id: string, paused: boolean): Promise<void> {
  await tx.query('update automation_batches set paused = $2 where id = $1', [id, paused]);
}

/** Each profile's latest run in the batch, `status` only if given, in the order they were queued. */
export async function latestRunsOfBatch(
  db: Queryable,
  batchId: string,
  status?: RunStatus,
): Promise<RunRow[]> {
  return db.query<RunRow>(
    `select ${RUN_COLUMNS} from automation_runs
      where batch_id = $1 and ${LATEST_IN_BATCH}${status ? ' and status = $2' : ''} order by seq`,
    status ? [batchId, status] : [batchId],
  );
}

/** A batch's run as its export shows it: each profile's latest run. */
export interface ExportedRun {
  seq: number;
  id: string;
  profile_id: string;
  profile_name: string | null;
  status: RunRow['status'];
  error: string | null;
  finished_at: Date | null;
  output: Record<string, unknown>;
}

/** The names of the outputs of the batch's latest runs, each once, read in the database. */
export async function batchOutputNames(db: Queryable, batchId: string): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `select distinct jsonb_object_keys(output) as name from automation_runs
      where batch_id = $1 and ${LATEST_IN_BATCH}`,
    [batchId],
  );
  return rows.map((row) => row.name);
}

/** Up to `limit` of the batch's latest runs after `afterSeq`, in order. */
export function exportedRunsPage(
  db: Queryable,
  batchId: string,
  afterSeq: number,
  limit: number,
): Promise<ExportedRun[]> {
  return db.query<ExportedRun>(
    `select seq, id, profile_id, status, error, finished_at, output,
       (select profile.name from profiles profile where profile.id = automation_runs.profile_id) as profile_name
      from automation_runs where batch_id = $1 and seq > $2 and ${LATEST_IN_BATCH} order by seq limit $3`,
    [batchId, afterSeq, limit],
  );
}
