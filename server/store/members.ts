import type { Role, Scope } from '../../lib/api/roles';
import type { ApiKey, Member } from '../../lib/api/schemas/workspace';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { insertExpiringKey } from './account-keys';

interface MemberRow {
  id: string;
  name: string;
  email: string | null;
  role: Role;
  scope: Scope | null;
  created_at: Date;
}

const MEMBER_COLUMNS = 'id, name, email, role, scope, created_at';

/** The workspace's members (people and agents) not removed, oldest first. */
export async function listMembers(db: Queryable, accountId: string): Promise<Member[]> {
  const rows = await db.query<MemberRow>(
    `select ${MEMBER_COLUMNS} from members where account_id = $1 and removed_at is null order by created_at, id`,
    [accountId],
  );
  return rows.map(toMember);
}

export async function findMember(db: Queryable, accountId: string, id: string): Promise<Member | null> {
  const [row] = await db.query<MemberRow>(
    `select ${MEMBER_COLUMNS} from members where account_id = $1 and id = $2 and removed_at is null`,
    [accountId, id],
  );
  return row ? toMember(row) : null;
}

/** Whether a member (not removed) of any workspace signs in with this email. */
export async function isMemberEmail(db: Queryable, email: string): Promise<boolean> {
  const rows = await db.query('select 1 from members where lower(email) = lower($1) and removed_at is null', [
    email,
  ]);
  return rows.length > 0;
}

/** The owners left, locked until the transaction ends, so that two removals cannot both take the last but one. */
export async function lockOwners(db: Queryable, accountId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `select id from members where account_id = $1 and role = 'owner' and removed_at is null for update`,
    [accountId],
  );
  return rows.map((row) => row.id);
}

export async function changeMember(
  db: Queryable,
  accountId: string,
  id: string,
  change: { role?: Role | undefined; scope?: Scope | null | undefined },
): Promise<Member | null> {
  const [row] = await db.query<MemberRow>(
    `update members set role = coalesce($3, role), scope = case when $4 then $5::jsonb else scope end
      where account_id = $1 and id = $2 and removed_at is null returning ${MEMBER_COLUMNS}`,
    [accountId, id, change.role ?? null, change.scope !== undefined, JSON.stringify(change.scope ?? null)],
  );
  return row ? toMember(row) : null;
}

/** Removes a member: their keys are revoked and their dashboard sign-ins end. False when there is none. */
export async function removeMemberRow(
  db: Queryable,
  clock: Clock,
  accountId: string,
  id: string,
): Promise<boolean> {
  const now = clock.now();
  const [row] = await db.query<{ id: string }>(
    'update members set removed_at = $3 where account_id = $1 and id = $2 and removed_at is null returning id',
    [accountId, id, now],
  );
  if (!row) return false;
  await db.query('update api_keys set revoked_at = coalesce(revoked_at, $2) where member_id = $1', [id, now]);
  await db.query('delete from dashboard_sessions where member_id = $1', [id]);
  return true;
}

/** Adds a member: a person (with an email and a password hash) or an agent (named by its key). */
export async function insertMember(
  db: Queryable,
  clock: Clock,
  member: {
    accountId: string;
    name: string;
    email: string | null;
    passwordHash: string | null;
    role: Role;
    scope: Scope | null;
  },
): Promise<string> {
  const id = newId('mem');
  await db.query(
    `insert into members (id, account_id, name, email, password_hash, role, scope, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      id,
      member.accountId,
      member.name,
      member.email,
      member.passwordHash,
      member.role,
      JSON.stringify(member.scope),
      clock.now(),
    ],
  );
  return id;
}

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  member_id: string;
  role: Role;
  scope: Scope | null;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const KEYS_OF_WORKSPACE = `select k.id, k.name, k.prefix, k.member_id, m.role, m.scope, k.created_at, k.expires_at,
    k.last_used_at, k.revoked_at
  from api_keys k join members m on m.id = k.member_id`;

/** The workspace's keys, newest first, each with its member's role and scope (never the key or its hash). */
export async function listWorkspaceKeys(db: Queryable, accountId: string): Promise<ApiKey[]> {
  const rows = await db.query<KeyRow>(
    `${KEYS_OF_WORKSPACE} where k.account_id = $1 order by k.created_at desc, k.id`,
    [accountId],
  );
  return rows.map(toApiKey);
}

/** A key for a new agent: a member named as the key, with its role and scope. The key is in the answer only. */
export async function createAgentKey(
  db: Queryable,
  clock: Clock,
  accountId: string,
  options: { name: string; role: Role; scope: Scope | null; expiresInDays: number | null },
): Promise<ApiKey & { key: string }> {
  const now = clock.now();
  const memberId = await insertMember(db, clock, {
    accountId,
    name: options.name,
    email: null,
    passwordHash: null,
    role: options.role,
    scope: options.scope,
  });
  const { id, key, prefix, expiresAt } = await insertExpiringKey(db, now, {
    accountId,
    memberId,
    name: options.name,
    expiresInDays: options.expiresInDays,
  });
  return {
    ...toApiKey({
      id,
      name: options.name,
      prefix,
      member_id: memberId,
      role: options.role,
      scope: options.scope,
      created_at: now,
      expires_at: expiresAt,
      last_used_at: null,
      revoked_at: null,
    }),
    key,
  };
}

/** The workspace's key with this id, or null. */
export async function findWorkspaceKey(db: Queryable, accountId: string, id: string): Promise<ApiKey | null> {
  const [row] = await db.query<KeyRow>(`${KEYS_OF_WORKSPACE} where k.account_id = $1 and k.id = $2`, [
    accountId,
    id,
  ]);
  return row ? toApiKey(row) : null;
}

/** Revokes a key (safe to repeat); an agent, which is its key, goes with it. */
export async function revokeWorkspaceKey(
  db: Queryable,
  clock: Clock,
  accountId: string,
  id: string,
): Promise<void> {
  const now = clock.now();
  const [row] = await db.query<{ member_id: string }>(
    'update api_keys set revoked_at = coalesce(revoked_at, $3) where account_id = $1 and id = $2 returning member_id',
    [accountId, id, now],
  );
  if (row)
    await db.query(
      'update members set removed_at = coalesce(removed_at, $2) where id = $1 and email is null and role <> $3',
      [row.member_id, now, 'owner'],
    );
}

function toMember(row: MemberRow): Member {
  return { ...row, created_at: row.created_at.toISOString() };
}

function toApiKey(row: KeyRow): ApiKey {
  return {
    ...row,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}
