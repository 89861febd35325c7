import type { Script } from '../../lib/api/inputs/automation';
import type { AutomationRun, RunStatus, StepResult } from '../../lib/api/schemas/automation';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { firstRow } from './first-row';
import type { Holder } from './leases';
import { type Page, toPage } from './pagination';
import { idInScope, type Reader, scopeOfProfile } from './scope';
import { sessionIsLive } from './sessions';
import { statusIn } from './status-in';

export interface RunRow {
  seq: number;
  id: string;
  account_id: string;
  profile_id: string;
  session_id: string | null;
  owns_session: boolean;
  name: string | null;
  batch_id: string | null;
  status: RunStatus;
  script: Script;
  steps: StepResult[];
  output: Record<string, unknown>;
  error: string | null;
  version: number;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  /** The node (service process) that executes it; null for runs from before there were nodes. */
  node_id: string | null;
  /** Its profile's name now; null once the profile is deleted. */
  profile_name: string | null;
  /** How many times it was queued again after a passing failure. */
  retries: number;
  /** Who queued it: the session it starts holds the profile for them. Null for runs from before leases. */
  holder_id: string | null;
  holder_name: string | null;
}

// As for sessions: the profile's name now, by its primary key; statements name the table unaliased.
export const RUN_COLUMNS = `seq, id, account_id, profile_id, session_id, owns_session, name, batch_id, status, script, steps, output,
  error, version, created_at, started_at, finished_at, node_id, retries, holder_id, holder_name,
  (select profile.name from profiles profile where profile.id = automation_runs.profile_id) as profile_name`;
export const ACTIVE_RUN_STATUSES = ['queued', 'running'] as const;
/** The SQL condition that the run whose status is `column` is queued or running. */
export const runIsActive = (column = 'status') => statusIn(column, ACTIVE_RUN_STATUSES);

/** Queued or running: not finished yet. */
export function isActiveRun(status: RunStatus): boolean {
  return (ACTIVE_RUN_STATUSES as readonly string[]).includes(status);
}

/**
 * JSON for a jsonb column, with U+0000 stored as U+FFFD. PostgreSQL's text and jsonb cannot hold U+0000, and
 * page text may contain it (an extract, an evaluate's value, an error quoting the page): the value is kept,
 * with the replacement character where the NUL was. Not an escape such as the six characters \u0000, which
 * could not be told from a page holding them.
 */
export function storableJson(value: unknown): string {
  // Every NUL in JSON.stringify's text is the escape \u0000, after an even run of backslashes (escaped ones).
  return JSON.stringify(value).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, '$1\\ufffd');
}

/** Text for a text column, with U+0000 stored as U+FFFD (see storableJson). */
export function storableText(text: string): string {
  return text.replaceAll('\0', '\uFFFD');
}

export function toRun(row: RunRow): AutomationRun {
  return {
    id: row.id,
    profile_id: row.profile_id,
    profile_name: row.profile_name,
    session_id: row.session_id,
    name: row.name,
    batch_id: row.batch_id,
    status: row.status,
    steps: row.steps,
    output: row.output,
    error: row.error,
    version: row.version,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    retries: row.retries,
  };
}

export async function insertRun(
  db: Queryable,
  clock: Clock,
  fields: {
    accountId: string;
    profileId: string;
    sessionId: string | null;
    name: string | null;
    script: Script;
    /** Null while it waits for room (room_waits). */
    nodeId: string | null;
    batchId?: string | null;
    holder: Holder;
  },
): Promise<RunRow> {
  const steps = pendingSteps(fields.script);
  const [row] = await db.query<RunRow>(
    `insert into automation_runs (id, account_id, profile_id, session_id, name, status, script, steps, created_at,
       node_id, batch_id, holder_id, holder_name)
     values ($1, $2, $3, $4, $5, 'queued', $6::jsonb, $7::jsonb, $8, $9, $10, $11, $12) returning ${RUN_COLUMNS}`,
    [
      newId('run'),
      fields.accountId,
      fields.profileId,
      fields.sessionId,
      fields.name,
      JSON.stringify(fields.script),
      JSON.stringify(steps),
      clock.now(),
      fields.nodeId,
      fields.batchId ?? null,
      fields.holder.id,
      fields.holder.name,
    ],
  );
  return row as RunRow;
}

export function pendingSteps(script: Script): StepResult[] {
  return script.steps.map((step, index) => ({
    index,
    action: step.action,
    ...('name' in step && step.name ? { output_name: step.name } : {}),
    status: 'pending',
  }));
}

/**
 * The node a new run of the profile goes to: the one with its earlier runs still queued or running (runs of a
 * profile execute one after another, in order), else the one running its session; null for no such live node.
 * Serialises the profile's enqueues: call it in the transaction that inserts the run.
 */
export async function executorOfProfile(tx: Queryable, profileId: string): Promise<string | null> {
  await tx.query(`select pg_advisory_xact_lock(hashtext($1))`, [profileId]);
  const [row] = await tx.query<{ node_id: string | null }>(`select ${executorOf('$1')} as node_id`, [
    profileId,
  ]);
  return row?.node_id ?? null;
}

/** The SQL of executorOfProfile's node for the profile whose id is the SQL `profileId`. */
export const executorOf = (profileId: string) => `coalesce(
  (select r.node_id from automation_runs r join nodes n on n.id = r.node_id
    where r.profile_id = ${profileId} and ${runIsActive('r.status')} order by r.seq desc limit 1),
  (select s.node_id from sessions s join nodes n on n.id = s.node_id
    where s.profile_id = ${profileId} and ${sessionIsLive('s.status')} limit 1))`;

/** Queued runs this node is to execute, in the order they came. */
export async function findQueuedRunsOfNode(db: Queryable, nodeId: string): Promise<RunRow[]> {
  return db.query<RunRow>(
    `select ${RUN_COLUMNS} from automation_runs where node_id = $1 and status = 'queued' order by seq`,
    [nodeId],
  );
}

export async function findRun(db: Queryable, reader: Reader, id: string): Promise<RunRow | null> {
  const { where, params } = idInScope(reader, 'automation_runs', id);
  return firstRow(db.query<RunRow>(`select ${RUN_COLUMNS} from automation_runs where ${where}`, params));
}

export async function listRuns(
  db: Queryable,
  reader: Reader,
  options: {
    limit: number;
    after: number | null;
    status?: RunStatus | 'active';
    profileId?: string;
    batchId?: string;
  },
): Promise<Page<AutomationRun>> {
  const statuses =
    options.status === 'active' ? [...ACTIVE_RUN_STATUSES] : options.status ? [options.status] : null;
  // Only the filters given, so that each combination is its own prepared statement whose plan uses the index.
  const params: unknown[] = [reader.id, options.limit + 1];
  const where = ['account_id = $1', ...scopeOfProfile(reader, params, 'automation_runs.profile_id')];
  const filter = (condition: string, value: unknown) => {
    params.push(value);
    where.push(condition.replace('?', `$${params.length}`));
  };
  if (options.profileId !== undefined) filter('profile_id = ?', options.profileId);
  if (options.batchId !== undefined) {
    filter('batch_id = ?', options.batchId);
    where.push(LATEST_IN_BATCH);
  }
  if (options.after !== null) filter('seq < ?::bigint', options.after);
  if (statuses) filter('status = any(?::text[])', statuses);
  const rows = await db.query<RunRow>(
    `select ${RUN_COLUMNS} from automation_runs where ${where.join(' and ')} order by seq desc limit $2`,
    params,
  );
  return toPage(rows, options.limit, toRun);
}

/** The run is its profile's latest in its batch: a retried one's earlier runs are not. */
export const LATEST_IN_BATCH = `not exists (select from automation_runs later where later.batch_id = automation_runs.batch_id
  and later.profile_id = automation_runs.profile_id and later.seq > automation_runs.seq)`;

/** Applies `assignments` (SQL using $2.. for `params`) and bumps the version: every change is one version. */
async function updateRun(db: Queryable, id: string, assignments: string, params: unknown[]): Promise<RunRow> {
  const [row] = await db.query<RunRow>(
    `update automation_runs set ${assignments}, version = version + 1 where id = $1 returning ${RUN_COLUMNS}`,
    [id, ...params],
  );
  if (!row) throw new Error(`run ${id} vanished`);
  return row;
}

/** The run has its session and is running, and leaves the line for room; null if it is no longer queued. */
export async function markRunStarted(
  db: Queryable,
  clock: Clock,
  id: string,
  session: { sessionId: string; ownsSession: boolean },
): Promise<RunRow | null> {
  await db.query('delete from room_waits where run_id = $1', [id]);
  return firstRow(
    db.query<RunRow>(
      `update automation_runs set status = 'running', session_id = $2, owns_session = $3, started_at = $4,
         version = version + 1 where id = $1 and status = 'queued' returning ${RUN_COLUMNS}`,
      [id, session.sessionId, session.ownsSession, clock.now()],
    ),
  );
}

/** The run is queued afresh after a passing failure: its steps pending again, its retries counted. */
export function requeueRun(db: Queryable, run: Pick<RunRow, 'id' | 'script'>): Promise<RunRow> {
  return updateRun(
    db,
    run.id,
    `status = 'queued', session_id = null, owns_session = false, started_at = null, output = '{}'::jsonb,
     error = null, retries = retries + 1, steps = $2::jsonb`,
    [JSON.stringify(pendingSteps(run.script))],
  );
}

/**
 * The run ended (and left the line for room, if it waited): steps still pending are skipped, one still running
 * failed with the run's error.
 */
export async function finishRun(
  db: Queryable,
  clock: Clock,
  id: string,
  outcome: { status: RunStatus; output: Record<string, unknown>; error: string | null },
): Promise<RunRow> {
  await db.query('delete from room_waits where run_id = $1', [id]);
  return updateRun(
    db,
    id,
    `status = $2, output = $3::jsonb, error = $4, finished_at = $5, steps = ${finishedSteps('$4')}`,
    [
      outcome.status,
      storableJson(outcome.output),
      outcome.error === null ? null : storableText(outcome.error),
      clock.now(),
    ],
  );
}

/** The steps of a finished run, `error` the SQL of its error: those pending skipped, one running failed with it. */
export const finishedSteps = (error: string) => `(select coalesce(jsonb_agg(case s->>'status'
    when 'pending' then s || '{"status":"skipped"}'::jsonb
    when 'running' then s || jsonb_build_object('status', 'failed', 'error', ${error}::text)
    else s end order by i), '[]'::jsonb)
    from jsonb_array_elements(steps) with ordinality as t(s, i))`;

/** Merges `patch` into step `index`. */
export function updateStep(
  db: Queryable,
  id: string,
  index: number,
  patch: Partial<StepResult>,
): Promise<RunRow> {
  return updateRun(db, id, `steps = jsonb_set(steps, array[$2::text], (steps -> $2::int) || $3::jsonb)`, [
    index,
    storableJson(patch),
  ]);
}
