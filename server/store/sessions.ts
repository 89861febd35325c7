import type { Session, SessionStatus } from '../../lib/api/schemas/sessions';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { firstRow } from './first-row';
import { type HeldBy, type Holder, lockLease, takeLease } from './leases';
import { type Page, toPage } from './pagination';
import { idInScope, type Reader, scopeOfProfile } from './scope';
import { statusIn } from './status-in';

export type StopReason = NonNullable<Session['stop_reason']>;

/** A session in one of these states holds its profile: at most one per profile (a partial unique index). */
export const LIVE_SESSION_STATUSES = ['starting', 'running', 'stopping'] as const;
/** The SQL condition that the session whose status is `column` is live. */
export const sessionIsLive = (column = 'status') => statusIn(column, LIVE_SESSION_STATUSES);

export interface SessionRow {
  seq: number;
  id: string;
  account_id: string;
  profile_id: string;
  status: SessionStatus;
  headless: boolean;
  pid: number | null;
  started_at: Date;
  stopped_at: Date | null;
  stop_reason: StopReason | null;
  error: string | null;
  /** The node (service process) that runs its browser; null for sessions from before there were nodes. */
  node_id: string | null;
  /** Its profile's name now; null once the profile is deleted. */
  profile_name: string | null;
  /** The generation of the profile's lease it holds, which its saves carry; null for sessions from before leases. */
  lease_generation: number | null;
}

// The profile's name is read with every row, by its primary key, so that a renamed profile shows its new name.
// Statements name the table `sessions`, unaliased, for the subquery to reach it.
const COLUMNS = `seq, id, account_id, profile_id, status, headless, pid, started_at, stopped_at,
  stop_reason, error, node_id, lease_generation,
  (select profile.name from profiles profile where profile.id = sessions.profile_id) as profile_name`;

/** The API's view of a session; `cdpUrl` is its relayed DevTools address while it runs. */
export function toSession(row: SessionRow, cdpUrl: string | null = null): Session {
  return {
    id: row.id,
    profile_id: row.profile_id,
    profile_name: row.profile_name,
    status: row.status,
    cdp_url: cdpUrl,
    live_view_url: null,
    live_view_readonly_url: null,
    headless: row.headless,
    started_at: row.started_at.toISOString(),
    stopped_at: row.stopped_at?.toISOString() ?? null,
    stop_reason: row.stop_reason,
    error: row.error,
  };
}

export async function listSessions(
  db: Queryable,
  reader: Reader,
  options: { limit: number; after: number | null; status?: SessionStatus },
  view: (row: SessionRow) => Session,
): Promise<Page<Session>> {
  const params: unknown[] = [reader.id, options.after, options.status ?? null, options.limit + 1];
  const scope = scopeOfProfile(reader, params, 'sessions.profile_id').map((condition) => ` and ${condition}`);
  const rows = await db.query<SessionRow>(
    `select ${COLUMNS} from sessions
      where account_id = $1 and ($2::bigint is null or seq < $2) and ($3::text is null or status = $3)${scope.join('')}
      order by seq desc limit $4`,
    params,
  );
  return toPage(rows, options.limit, view);
}

export async function findSession(db: Queryable, reader: Reader, id: string): Promise<SessionRow | null> {
  const { where, params } = idInScope(reader, 'sessions', id);
  return firstRow(db.query<SessionRow>(`select ${COLUMNS} from sessions where ${where}`, params));
}

/**
 * A session by its id alone, of whichever account: only for a signed address that names it (a live view's),
 * whose signature is the credential. Never for an account's request.
 */
export async function findSessionOfSignedAddress(db: Queryable, id: string): Promise<SessionRow | null> {
  return firstRow(db.query<SessionRow>(`select ${COLUMNS} from sessions where id = $1`, [id]));
}

/** The profile's live session, or else its latest one. */
export async function findSessionOfProfile(
  db: Queryable,
  accountId: string,
  profileId: string,
): Promise<SessionRow | null> {
  return firstRow(
    db.query<SessionRow>(
      `select ${COLUMNS} from sessions where account_id = $1 and profile_id = $2
        order by (${sessionIsLive()}) desc, seq desc limit 1`,
      [accountId, profileId],
    ),
  );
}

/** The live sessions of this node (and those from before there were nodes, which no other node claims). */
export async function findLiveSessionsOfNode(db: Queryable, nodeId: string): Promise<SessionRow[]> {
  return db.query<SessionRow>(
    `select ${COLUMNS} from sessions where ${sessionIsLive()} and (node_id = $1 or node_id is null)`,
    [nodeId],
  );
}

/**
 * Live sessions whose node has left the cluster without stopping them (it was lost), once no run on them is
 * queued or running: whoever sees such a session stopped finds its runs already failed, whichever node swept.
 */
export async function findOrphanedSessions(db: Queryable, selfId: string): Promise<SessionRow[]> {
  return db.query<SessionRow>(
    `select ${COLUMNS} from sessions where ${sessionIsLive()} and node_id is not null and node_id <> $1
        and not exists (select 1 from nodes n where n.id = sessions.node_id)
        and not exists (select 1 from automation_runs r
                         where r.session_id = sessions.id and r.status in ('queued', 'running'))`,
    [selfId],
  );
}

export type StartingInsert =
  | { row: SessionRow }
  | { refused: 'profile_busy' | 'account_at_cap' }
  | { refused: 'profile_held'; heldBy: HeldBy };

/**
 * Inserts a `starting` session and gives it the profile's lease for `holder`, unless another member holds the
 * profile, the profile already has a live session (the partial unique index), or the account holds `cap` live
 * sessions. Starts of one account are serialised by a transaction lock, so the cap holds however many arrive at
 * once, on one service process or several: call it in a transaction.
 */
export async function insertStartingSession(
  tx: Queryable,
  clock: Clock,
  fields: {
    accountId: string;
    profileId: string;
    headless: boolean;
    cap: number;
    nodeId: string;
    holder: Holder;
    leaseTtlMs: number;
    /** A session started only to read or write cookies leaves the profile's `last_used_at` as it was. */
    cookiesOnly?: boolean;
  },
): Promise<StartingInsert> {
  await tx.query(`select pg_advisory_xact_lock(hashtext($1))`, [fields.accountId]);
  const { heldBy } = await lockLease(tx, fields.profileId);
  if (heldBy && heldBy.member.id !== fields.holder.id) return { refused: 'profile_held', heldBy };
  const [live] = await tx.query<{ profile_busy: boolean; count: number }>(
    `select coalesce(bool_or(profile_id = $2), false) as profile_busy, count(*)::int as count
       from sessions where account_id = $1 and ${sessionIsLive()}`,
    [fields.accountId, fields.profileId],
  );
  if (live?.profile_busy) return { refused: 'profile_busy' };
  if ((live?.count ?? 0) >= fields.cap) return { refused: 'account_at_cap' };
  const now = clock.now();
  const id = newId('ses');
  const generation = await takeLease(tx, {
    accountId: fields.accountId,
    profileId: fields.profileId,
    holder: fields.holder,
    sessionId: id,
    nodeId: fields.nodeId,
    ttlMs: fields.leaseTtlMs,
  });
  const [row] = await tx.query<SessionRow>(
    `insert into sessions (id, account_id, profile_id, status, headless, started_at, updated_at, node_id,
                           lease_generation)
     values ($1, $2, $3, 'starting', $4, $5, $5, $6, $7)
     returning ${COLUMNS}`,
    [id, fields.accountId, fields.profileId, fields.headless, now, fields.nodeId, generation],
  );
  if (!row) throw new Error(`session ${id} was not inserted`);
  if (!fields.cookiesOnly)
    await tx.query('update profiles set last_used_at = $2 where id = $1', [fields.profileId, now]);
  return { row };
}

/**
 * Ends, as `lease_lost`, the live session of the profile whose lease expired: its node stopped renewing it (it
 * was lost, or stalled past the lease's time). Answers the session so ended, if there was one.
 */
export async function endSessionOfExpiredLease(
  tx: Queryable,
  clock: Clock,
  profileId: string,
): Promise<SessionRow | null> {
  return firstRow(
    tx.query<SessionRow>(
      `update sessions set status = 'stopped', stop_reason = 'lease_lost', stopped_at = $2, updated_at = $2, pid = null
        where ${sessionIsLive()} and id = (select session_id from profile_leases
                                           where profile_id = $1 and holder_id is not null and expires_at <= now())
        returning ${COLUMNS}`,
      [profileId, clock.now()],
    ),
  );
}

export async function markRunning(
  db: Queryable,
  clock: Clock,
  id: string,
  browser: { pid: number },
): Promise<SessionRow> {
  return updateSession(db, clock, id, `status = 'running', pid = $3`, [browser.pid]);
}

export async function markStopping(db: Queryable, clock: Clock, id: string): Promise<SessionRow> {
  return updateSession(db, clock, id, `status = 'stopping'`, []);
}

export async function markStopped(
  db: Queryable,
  clock: Clock,
  id: string,
  reason: StopReason,
): Promise<SessionRow> {
  return updateSession(db, clock, id, `status = 'stopped', stop_reason = $3, stopped_at = $2, pid = null`, [
    reason,
  ]);
}

export async function markFailed(
  db: Queryable,
  clock: Clock,
  id: string,
  error: string,
): Promise<SessionRow> {
  return updateSession(db, clock, id, `status = 'failed', error = $3, stopped_at = $2, pid = null`, [error]);
}

async function updateSession(
  db: Queryable,
  clock: Clock,
  id: string,
  assignments: string,
  params: unknown[],
): Promise<SessionRow> {
  const [row] = await db.query<SessionRow>(
    `update sessions set ${assignments}, updated_at = $2 where id = $1 returning ${COLUMNS}`,
    [id, clock.now(), ...params],
  );
  if (!row) throw new Error(`session ${id} vanished`);
  return row;
}
