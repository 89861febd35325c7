import type { ProxyParts } from '../../lib/api/proxy-url';
import type { ProxyCheckJob } from '../../lib/api/schemas/proxy-fleet';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';

interface JobRow {
  id: string;
  state: ProxyCheckJob['state'];
  last_seq: number | string;
  total: number;
  checked: number;
  failing: number;
  created_at: Date;
  finished_at: Date | null;
}

/** A job still `running` that has made no progress for this long lost its node: it is interrupted. */
export const STALE_JOB_MS = 120_000;

const COLUMNS = 'id, state, last_seq, total, checked, failing, created_at, finished_at';

export function toCheckJob(row: JobRow): ProxyCheckJob {
  return {
    id: row.id,
    state: row.state,
    total: row.total,
    checked: row.checked,
    failing: row.failing,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

/** The job and the newest proxy it checks (by seq), to be checked in order up to it. */
export interface StartedJob {
  job: ProxyCheckJob;
  lastSeq: number;
  /** False when the account's running job was answered instead of a new one. */
  created: boolean;
}

/**
 * Starts a check of every proxy the account has saved, or answers the one that runs (a job without progress for
 * STALE_JOB_MS is interrupted first: its node is gone).
 */
export async function startCheckJob(tx: Queryable, clock: Clock, accountId: string): Promise<StartedJob> {
  const now = clock.now();
  await tx.query(
    `update proxy_check_jobs set state = 'interrupted', finished_at = $2
      where account_id = $1 and state = 'running' and updated_at < $3`,
    [accountId, now, new Date(now.getTime() - STALE_JOB_MS)],
  );
  const [row] = await tx.query<JobRow>(
    `insert into proxy_check_jobs (id, account_id, state, last_seq, total, created_at, updated_at)
     select $2, $1, 'running', coalesce(max(seq), 0), count(*)::int, $3, $3 from proxies where account_id = $1
     on conflict (account_id) where state = 'running' do nothing
     returning ${COLUMNS}`,
    [accountId, newId('pck'), now],
  );
  const job =
    row ??
    (
      await tx.query<JobRow>(
        `select ${COLUMNS} from proxy_check_jobs where account_id = $1 and state = 'running'`,
        [accountId],
      )
    )[0];
  if (!job) throw new Error('a running proxy check job was neither made nor found');
  return { job: toCheckJob(job), lastSeq: Number(job.last_seq), created: row !== undefined };
}

export async function findCheckJob(
  db: Queryable,
  accountId: string,
  id: string,
): Promise<ProxyCheckJob | null> {
  const [row] = await db.query<JobRow>(
    `select ${COLUMNS} from proxy_check_jobs where account_id = $1 and id = $2`,
    [accountId, id],
  );
  return row ? toCheckJob(row) : null;
}

/** Counts checks made since the last record, and ends the job with `state` when it is given. */
export async function recordCheckProgress(
  db: Queryable,
  clock: Clock,
  id: string,
  made: { checked: number; failing: number },
  state?: 'done' | 'interrupted',
): Promise<ProxyCheckJob | null> {
  const [row] = await db.query<JobRow>(
    `update proxy_check_jobs
        set checked = checked + $2, failing = failing + $3, updated_at = $4::timestamptz,
            state = coalesce($5::text, state),
            finished_at = case when $5::text is null then null else $4::timestamptz end
      where id = $1 and state = 'running'
      returning ${COLUMNS}`,
    [id, made.checked, made.failing, clock.now(), state ?? null],
  );
  return row ? toCheckJob(row) : null;
}

/** The account's proxies up to `lastSeq`, oldest first, with what a check needs. */
export async function proxiesToCheck(
  db: Queryable,
  accountId: string,
  lastSeq: number,
): Promise<(ProxyParts & { id: string })[]> {
  return db.query<ProxyParts & { id: string }>(
    `select id, scheme, host, port, username, password from proxies
      where account_id = $1 and seq <= $2 order by seq`,
    [accountId, lastSeq],
  );
}
