import type { Queryable } from '../db/driver';

/** Who holds a profile: a member of the workspace (a person, or an agent's key). */
export interface Holder {
  id: string;
  name: string;
}

/** A held lease as the API shows it (`held_by`). */
export interface HeldBy {
  member: Holder;
  since: Date;
  session_id: string | null;
}

/** A lease is held while it has a holder and its expiry, renewed by the holder's node, is ahead. */
const HELD = `l.holder_id is not null and l.expires_at > now()`;

/** The SQL columns of `held_by` over a lease aliased `l`, null when free (for the profiles' answers). */
export const HELD_BY_COLUMNS = `case when ${HELD} then l.holder_id end as holder_id,
  case when ${HELD} then l.holder_name end as holder_name,
  case when ${HELD} then l.since end as held_since,
  case when ${HELD} then l.session_id end as held_session_id`;

const FREE = `holder_id = null, holder_name = null, session_id = null, node_id = null, since = null,
  expires_at = null`;

/** Joins a profile `p` to its lease `l`. */
export const JOIN_LEASE = `left join profile_leases l on l.profile_id = p.id`;

export interface HeldByColumns {
  holder_id: string | null;
  holder_name: string | null;
  held_since: Date | string | null;
  held_session_id: string | null;
}

export function toHeldBy(row: HeldByColumns): HeldBy | null {
  if (row.holder_id === null || row.holder_name === null || row.held_since === null) return null;
  return {
    member: { id: row.holder_id, name: row.holder_name },
    since: new Date(row.held_since),
    session_id: row.held_session_id,
  };
}

/** `held_by` as the API answers it. */
export function heldByAnswer(held: HeldBy) {
  return { member: held.member, since: held.since.toISOString(), session_id: held.session_id };
}

/**
 * The profile's lease, locked until the transaction ends: who holds it (null when free or expired) and its
 * generation (0 when the profile never had one).
 */
export async function lockLease(
  tx: Queryable,
  profileId: string,
): Promise<{ heldBy: HeldBy | null; generation: number }> {
  const [row] = await tx.query<HeldByColumns & { generation: number }>(
    `select l.generation, ${HELD_BY_COLUMNS} from profile_leases l where l.profile_id = $1 for update`,
    [profileId],
  );
  return { heldBy: row ? toHeldBy(row) : null, generation: row?.generation ?? 0 };
}

/** The profiles of the account a member holds now. */
export async function profilesHeldBy(db: Queryable, accountId: string, memberId: string): Promise<string[]> {
  const rows = await db.query<{ profile_id: string }>(
    `select l.profile_id from profile_leases l where l.account_id = $1 and l.holder_id = $2 and ${HELD}`,
    [accountId, memberId],
  );
  return rows.map((row) => row.profile_id);
}

/** Who holds the profile now, or null. */
export async function findHolder(db: Queryable, profileId: string): Promise<HeldBy | null> {
  const [row] = await db.query<HeldByColumns>(
    `select ${HELD_BY_COLUMNS} from profile_leases l where l.profile_id = $1`,
    [profileId],
  );
  return row ? toHeldBy(row) : null;
}

/** The account's profiles among `ids` that a member other than `memberId` holds now: each one's name and holder. */
export async function heldByOthers(
  db: Queryable,
  accountId: string,
  ids: string[],
  memberId: string,
): Promise<Map<string, { name: string; heldBy: HeldBy }>> {
  const rows = await db.query<HeldByColumns & { id: string; name: string }>(
    `select p.id, p.name, ${HELD_BY_COLUMNS} from profiles p ${JOIN_LEASE}
      where p.account_id = $1 and p.id = any($2::text[]) and ${HELD} and l.holder_id <> $3`,
    [accountId, ids, memberId],
  );
  return new Map(rows.map((row) => [row.id, { name: row.name, heldBy: toHeldBy(row) as HeldBy }]));
}

/** Gives the profile to `holder` for `sessionId` on `nodeId` as the lease's next generation, and answers it. */
export async function takeLease(
  tx: Queryable,
  lease: {
    accountId: string;
    profileId: string;
    holder: Holder;
    sessionId: string | null;
    nodeId: string;
    ttlMs: number;
  },
): Promise<number> {
  const [row] = await tx.query<{ generation: number }>(
    `insert into profile_leases as l
       (profile_id, account_id, generation, holder_id, holder_name, session_id, node_id, since, expires_at)
     values ($1, $2, 1, $3, $4, $5, $6, now(), now() + make_interval(secs => $7 / 1000.0))
     on conflict (profile_id) do update
       set generation = l.generation + 1, holder_id = excluded.holder_id, holder_name = excluded.holder_name,
           session_id = excluded.session_id, node_id = excluded.node_id, since = excluded.since,
           expires_at = excluded.expires_at
     returning generation`,
    [
      lease.profileId,
      lease.accountId,
      lease.holder.id,
      lease.holder.name,
      lease.sessionId,
      lease.nodeId,
      lease.ttlMs,
    ],
  );
  if (!row) throw new Error(`the lease of profile ${lease.profileId} was not taken`);
  return row.generation;
}

/** Frees the lease its session held, once the session ended (its generation stays, for the fencing). */
export async function freeLeaseOfSession(tx: Queryable, sessionId: string): Promise<void> {
  await tx.query(`update profile_leases set ${FREE} where session_id = $1`, [sessionId]);
}

/** Frees the profile's lease if `held`'s holder still holds it with the same session (a release). */
export async function freeLease(db: Queryable, profileId: string, held: HeldBy): Promise<void> {
  await db.query(
    `update profile_leases set ${FREE}
      where profile_id = $1 and holder_id = $2 and session_id is not distinct from $3`,
    [profileId, held.member.id, held.session_id],
  );
}

/** Pushes the expiry of the leases this node holds `ttlMs` ahead. */
export async function renewLeasesOfNode(db: Queryable, nodeId: string, ttlMs: number): Promise<void> {
  await db.query(
    `update profile_leases set expires_at = now() + make_interval(secs => $2 / 1000.0)
      where node_id = $1 and holder_id is not null`,
    [nodeId, ttlMs],
  );
}

/**
 * Live sessions of this node whose lease another holder has taken since (this node missed its renewals, and
 * its lease expired): they no longer hold their profile.
 */
export async function sessionsThatLostTheirLease(
  db: Queryable,
  nodeId: string,
): Promise<{ id: string; account_id: string }[]> {
  return db.query<{ id: string; account_id: string }>(
    `select s.id, s.account_id from sessions s
      where s.node_id = $1 and s.status in ('starting', 'running', 'stopping') and s.lease_generation is not null
        and not exists (select 1 from profile_leases l
                         where l.session_id = s.id and l.generation = s.lease_generation)`,
    [nodeId],
  );
}

/**
 * Whether a save made under `generation` may be written: no later holder has taken the profile since. Locks the
 * lease until the transaction ends, so no take comes between the check and the write.
 */
export async function isCurrentGeneration(
  tx: Queryable,
  profileId: string,
  generation: number,
): Promise<boolean> {
  return (await lockLease(tx, profileId)).generation === generation;
}
