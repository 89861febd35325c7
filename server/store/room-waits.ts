import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';
import type { Holder } from './leases';
import { runIsActive } from './runs';
import { sessionIsLive } from './sessions';

/** NOTIFY channel on which every node is told that room may have come (or work came to wait for it). */
export const ROOM_CHANNEL = 'pp_room';

/** Work that waits for a browser: a queued run, or a session start (`runId` null). */
export interface WaitRow {
  seq: number;
  account_id: string;
  profile_id: string;
  run_id: string | null;
  headless: boolean | null;
  /** Who asked for a session start: its session holds the profile for them (a run's holder is the run's). */
  holder_id: string | null;
  holder_name: string | null;
}

export async function notifyRoom(tx: Queryable): Promise<void> {
  await tx.query('select pg_notify($1, $2)', [ROOM_CHANNEL, '']);
}

/**
 * The run waits for room from `notBefore` on: not run by any node until one claims it. A run that waited before
 * keeps its place in the line.
 */
export async function waitForRoom(
  tx: Queryable,
  clock: Clock,
  run: { id: string; account_id: string; profile_id: string },
  notBefore: Date = clock.now(),
): Promise<void> {
  await tx.query('update automation_runs set node_id = null where id = $1', [run.id]);
  await tx.query(
    `insert into room_waits (account_id, profile_id, run_id, not_before, created_at) values ($1, $2, $3, $4, $5)
     on conflict (run_id) do update set claimed_by = null, not_before = excluded.not_before`,
    [run.account_id, run.profile_id, run.id, notBefore, clock.now()],
  );
  await notifyRoom(tx);
}

/** Session starts of the profiles, in order, waiting for room; answers each profile's place in line. */
export async function insertStartWaits(
  tx: Queryable,
  clock: Clock,
  accountId: string,
  profileIds: string[],
  headless: boolean | null,
  holder: Holder,
): Promise<Map<string, number>> {
  const rows = await tx.query<{ seq: number; profile_id: string }>(
    `insert into room_waits (account_id, profile_id, headless, not_before, created_at, holder_id, holder_name)
     select $1, profile_id, $3, $4, $4, $5, $6 from unnest($2::text[]) with ordinality as t(profile_id, n) order by n
     returning seq, profile_id`,
    [accountId, profileIds, headless, clock.now(), holder.id, holder.name],
  );
  await notifyRoom(tx);
  return new Map(rows.map((row) => [row.profile_id, row.seq]));
}

/** What the queue needs to know to pick: this node, its fair share, each plan's sessions at once, and the time. */
export interface ClaimTerms {
  nodeId: string;
  /** The most browsers of this node one account may hold while another account waits. */
  share: number;
  caps: Record<string, number>;
  now: Date;
}

/**
 * Claims for `nodeId` the next wait it may serve, or null. Due, unpaused, the first of its profile, its profile
 * idle, its account under its plan's cap, and under its fair share of the node unless no other account waits;
 * each account's oldest such wait, the account served longest ago first. Claims run one at a time across the
 * cluster (an advisory lock), so the counts they read are never stale; SKIP LOCKED passes over waits a cancel
 * or a pause holds.
 */
export async function claimNextWait(tx: Queryable, terms: ClaimTerms): Promise<WaitRow | null> {
  await tx.query(`select pg_advisory_xact_lock(hashtext('pp_room'))`);
  const [wait] = await tx.query<WaitRow>(
    `with held as (
       select account_id, count(*)::int as anywhere, (count(*) filter (where node_id = $1))::int as here from (
         select account_id, node_id from sessions where ${sessionIsLive('status')}
         union all select account_id, claimed_by from room_waits where claimed_by is not null) h
        group by account_id),
     room as (
       select a.id as account_id, coalesce(h.anywhere, 0) < coalesce(($2::jsonb ->> a.plan)::int, 0) as under_cap,
              coalesce(h.here, 0) as here
         from accounts a left join held h on h.account_id = a.id
        where a.id in (select account_id from room_waits where claimed_by is null)),
     due as (
       select w.seq, w.account_id from room_waits w
         left join automation_runs r on r.id = w.run_id
         left join automation_batches b on b.id = r.batch_id
        where w.claimed_by is null and w.not_before <= $3 and not coalesce(b.paused, false)
          and not exists (select from room_waits e where e.profile_id = w.profile_id and e.seq < w.seq)
          and not exists (select from automation_runs busy where busy.account_id = w.account_id
                            and busy.profile_id = w.profile_id and ${runIsActive('busy.status')}
                            and busy.node_id is not null)),
     firsts as (select distinct on (account_id) seq, account_id from due order by account_id, seq),
     waiting as materialized (select account_id from firsts join room using (account_id) where room.under_cap)
     select w.seq, w.account_id, w.profile_id, w.run_id, w.headless, w.holder_id, w.holder_name
       from room_waits w
       join firsts d on d.seq = w.seq
       join room on room.account_id = w.account_id
       left join room_turns t on t.account_id = w.account_id
      where room.under_cap
        and (room.here < $4 or not exists (select from waiting o where o.account_id <> w.account_id))
      order by t.served_at nulls first, w.seq
      limit 1
      for update of w skip locked`,
    [terms.nodeId, JSON.stringify(terms.caps), terms.now, terms.share],
  );
  if (!wait) return null;
  await tx.query('update room_waits set claimed_by = $1 where seq = $2', [terms.nodeId, wait.seq]);
  if (wait.run_id) {
    await tx.query('update automation_runs set node_id = $1 where id = $2', [terms.nodeId, wait.run_id]);
  }
  await tx.query(
    `insert into room_turns (account_id, served_at) values ($1, $2)
     on conflict (account_id) do update set served_at = excluded.served_at`,
    [wait.account_id, terms.now],
  );
  return wait;
}

/** The wait was served (or can never be): it leaves the line. */
export async function removeWait(db: Queryable, seq: number): Promise<void> {
  await db.query('delete from room_waits where seq = $1', [seq]);
}

/** A claimed wait goes back in line, in its place (its node found no room after all). */
export async function unclaimWait(db: Queryable, seq: number): Promise<void> {
  await db.query('update room_waits set claimed_by = null where seq = $1', [seq]);
  await notifyRoom(db);
}

/** Waits whose profile was deleted leave the line; answers the runs among them. */
export async function removeWaitsOfDeletedProfiles(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ run_id: string | null }>(
    `delete from room_waits w where claimed_by is null
        and not exists (select from profiles p where p.id = w.profile_id) returning run_id`,
  );
  return rows.flatMap((row) => (row.run_id ? [row.run_id] : []));
}

/** Session starts claimed by a node that restarted (`nodeId`) or left the cluster go back in line. */
export async function unclaimStartsOf(db: Queryable, nodeId: string | null): Promise<void> {
  await db.query(
    `update room_waits set claimed_by = null where run_id is null and claimed_by is not null
        and (claimed_by = $1 or not exists (select from nodes n where n.id = room_waits.claimed_by))`,
    [nodeId],
  );
}

/** Whether the run waits in line (and so is no node's yet). */
export async function isWaiting(db: Queryable, runId: string): Promise<boolean> {
  const rows = await db.query('select 1 from room_waits where run_id = $1', [runId]);
  return rows.length > 0;
}

/** Whether the session start `seq` still waits in line (or is being served). */
export async function isStartWaiting(db: Queryable, seq: number): Promise<boolean> {
  const rows = await db.query('select 1 from room_waits where seq = $1', [seq]);
  return rows.length > 0;
}
