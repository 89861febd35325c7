import type { Plan } from '../../lib/api/schemas/account';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { type Actor, insertOwner } from './accounts';

/**
 * A member signed in on the dashboard, and their workspace: one a person signed up for, one they were invited to,
 * or one made on the command line (its owner then has no email: the account's name stands for it).
 */
export interface DashboardAccount extends Actor {
  id: string;
  email: string;
  plan: Plan;
  has_password: boolean;
}

const DASHBOARD_ACCOUNT = `select a.id, coalesce(m.email, a.name) as email, a.plan,
    json_build_object('id', m.id, 'name', m.name) as member, m.role, m.scope,
    m.password_hash is not null as has_password
  from members m join accounts a on a.id = m.account_id`;

/**
 * Creates an account on the Free plan for an email, with its owner signing in with that email and password hash;
 * null when the email (ignoring case) already has an account or is a member of one.
 */
export async function createEmailAccount(
  db: Queryable,
  clock: Clock,
  email: string,
  passwordHash: string,
): Promise<DashboardAccount | null> {
  const accountId = newId('acc');
  const [row] = await db.query<{ id: string }>(
    `insert into accounts (id, name, plan, created_at, email)
     select $1, $2, 'free', $3, $2
      where not exists (select 1 from members where lower(email) = lower($2) and removed_at is null)
     on conflict (lower(email)) where email is not null do nothing
     returning id`,
    [accountId, email, clock.now()],
  );
  if (!row) return null;
  const memberId = await insertOwner(db, {
    accountId,
    name: email,
    email,
    passwordHash,
    createdAt: clock.now(),
  });
  return findDashboardAccount(db, memberId);
}

/** The member and password hash of an email, for signing in; null when no member has that email. */
export async function findPasswordOfEmail(
  db: Queryable,
  email: string,
): Promise<{ member_id: string; password_hash: string } | null> {
  const [row] = await db.query<{ member_id: string; password_hash: string }>(
    `select id as member_id, password_hash from members
      where lower(email) = lower($1) and password_hash is not null and removed_at is null`,
    [email],
  );
  return row ?? null;
}

export async function findPasswordOfMember(db: Queryable, memberId: string): Promise<string | null> {
  const [row] = await db.query<{ password_hash: string | null }>(
    'select password_hash from members where id = $1',
    [memberId],
  );
  return row?.password_hash ?? null;
}

/** The member (not removed) and their workspace, for the dashboard. */
export async function findDashboardAccount(
  db: Queryable,
  memberId: string,
): Promise<DashboardAccount | null> {
  const [row] = await db.query<DashboardAccount>(
    `${DASHBOARD_ACCOUNT} where m.id = $1 and m.removed_at is null`,
    [memberId],
  );
  return row ?? null;
}

/** The owner the operator's command line signs in: the account's first owner still a member. */
export async function findOwnerOfAccount(db: Queryable, accountId: string): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    `select id from members where account_id = $1 and role = 'owner' and removed_at is null
      order by created_at, id limit 1`,
    [accountId],
  );
  return row?.id ?? null;
}

export async function setPasswordHash(db: Queryable, memberId: string, passwordHash: string): Promise<void> {
  await db.query('update members set password_hash = $2 where id = $1', [memberId, passwordHash]);
}

/**
 * Gives a member without a password the email and password it will sign in with; false when another member
 * (of any workspace) signs in with that email.
 */
export async function setFirstSignIn(
  db: Queryable,
  memberId: string,
  email: string,
  passwordHash: string,
): Promise<boolean> {
  const rows = await db.query(
    `update members set email = $2, password_hash = $3
      where id = $1 and not exists (
        select 1 from members other where lower(other.email) = lower($2) and other.removed_at is null and other.id <> $1)
      returning id`,
    [memberId, email, passwordHash],
  );
  return rows.length > 0;
}

/** Deletes the account's row and, by cascade, its members, keys, profiles, proxies, sessions, runs and artifacts. */
export async function deleteAccountRow(db: Queryable, accountId: string): Promise<void> {
  await db.query('delete from accounts where id = $1', [accountId]);
}

/** The ids of the account's profiles (whose browser data lives on disk). */
export async function profileIdsOfAccount(db: Queryable, accountId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('select id from profiles where account_id = $1', [accountId]);
  return rows.map((row) => row.id);
}
