import type { Script } from '../../lib/api/inputs/automation';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import type { Holder } from './leases';
import { notifyRoom } from './room-waits';
import { executorOf, finishedSteps, pendingSteps, RUN_COLUMNS, type RunRow } from './runs';

/**
 * One run of `script` queued on each of the account's profiles, in the order given, in a few statements whatever
 * their number: each goes where its profile's session or earlier runs are (as insertRun's callers place one),
 * else waits for room. Ids that are no profile of the account get no run. Answers the runs in the order given.
 */
export async function insertQueuedRuns(
  tx: Queryable,
  clock: Clock,
  fields: {
    accountId: string;
    profileIds: string[];
    script: Script;
    name: string | null;
    batchId: string;
    holder: Holder;
  },
): Promise<RunRow[]> {
  const now = clock.now();
  // Serialises each profile's enqueues, as executorOfProfile does; in one order, so two batches cannot deadlock.
  await tx.query(
    `select pg_advisory_xact_lock(h) from (select hashtext(p) as h from unnest($1::text[]) p order by 1) locks`,
    [fields.profileIds],
  );
  const rows = await tx.query<RunRow>(
    `insert into automation_runs (id, account_id, profile_id, name, status, script, steps, created_at, node_id,
       batch_id, holder_id, holder_name)
     select t.run_id, $1, p.id, $4, 'queued', $5::jsonb, $6::jsonb, $7, ${executorOf('p.id')}, $8, $9, $10
       from unnest($2::text[], $3::text[]) with ordinality as t(profile_id, run_id, n)
       join profiles p on p.id = t.profile_id and p.account_id = $1
      order by t.n
     returning ${RUN_COLUMNS}`,
    [
      fields.accountId,
      fields.profileIds,
      fields.profileIds.map(() => newId('run')),
      fields.name,
      JSON.stringify(fields.script),
      JSON.stringify(pendingSteps(fields.script)),
      now,
      fields.batchId,
      fields.holder.id,
      fields.holder.name,
    ],
  );
  rows.sort((a, b) => a.seq - b.seq);
  const waiting = rows.filter((row) => row.node_id === null).map((row) => row.id);
  if (waiting.length > 0) {
    await tx.query(
      `insert into room_waits (account_id, profile_id, run_id, not_before, created_at)
       select account_id, profile_id, id, $2, $2 from automation_runs where id = any($1::text[]) order by seq`,
      [waiting, now],
    );
    await notifyRoom(tx);
  }
  return rows;
}

/** The batch's queued runs end cancelled (and leave the line for room); answers them. */
export async function cancelQueuedRuns(
  tx: Queryable,
  clock: Clock,
  batchId: string,
  error: string,
): Promise<RunRow[]> {
  const rows = await tx.query<RunRow>(
    `update automation_runs set status = 'cancelled', output = '{}'::jsonb, error = $2, finished_at = $3,
       steps = ${finishedSteps('$2')}, version = version + 1
      where batch_id = $1 and status = 'queued' returning ${RUN_COLUMNS}`,
    [batchId, error, clock.now()],
  );
  if (rows.length > 0) {
    await tx.query('delete from room_waits where run_id = any($1::text[])', [rows.map((row) => row.id)]);
    await notifyRoom(tx);
  }
  return rows.sort((a, b) => a.seq - b.seq);
}
