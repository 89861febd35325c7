import type { Plan } from '../../lib/api/schemas/account';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';

/** An account as the dashboard knows it: one a person signed up for, or one made on the command line, by its name. */
export interface DashboardAccount {
  id: string;
  email: string;
  plan: Plan;
}

/**
 * Creates an account on the Free plan for an email and a password hash; null when the email (ignoring case)
 * already has one.
 */
export async function createEmailAccount(
  db: Queryable,
  clock: Clock,
  email: string,
  passwordHash: string,
): Promise<DashboardAccount | null> {
  const [row] = await db.query<DashboardAccount>(
    `insert into accounts (id, name, plan, created_at, email, password_hash)
     values ($1, $2, 'free', $3, $2, $4)
     on conflict (lower(email)) where email is not null do nothing
     returning id, email, plan`,
    [newId('acc'), email, clock.now(), passwordHash],
  );
  return row ?? null;
}

/** The account and password hash of an email, for signing in; null when no account has that email. */
export async function findPasswordOfEmail(
  db: Queryable,
  email: string,
): Promise<(DashboardAccount & { password_hash: string }) | null> {
  const [row] = await db.query<DashboardAccount & { password_hash: string }>(
    `select id, email, plan, password_hash from accounts
      where lower(email) = lower($1) and password_hash is not null`,
    [email],
  );
  return row ?? null;
}

export async function findPasswordOfAccount(db: Queryable, accountId: string): Promise<string | null> {
  const [row] = await db.query<{ password_hash: string | null }>(
    'select password_hash from accounts where id = $1',
    [accountId],
  );
  return row?.password_hash ?? null;
}

export async function findDashboardAccount(
  db: Queryable,
  accountId: string,
): Promise<DashboardAccount | null> {
  const [row] = await db.query<DashboardAccount>(
    // An account made on the command line has no email: its name stands for it (signed in by a one-time link).
    'select id, coalesce(email, name) as email, plan from accounts where id = $1',
    [accountId],
  );
  return row ?? null;
}

export async function setPasswordHash(db: Queryable, accountId: string, passwordHash: string): Promise<void> {
  await db.query('update accounts set password_hash = $2 where id = $1', [accountId, passwordHash]);
}

/** Deletes the account's row and, by cascade, its keys, profiles, proxies, sessions, runs and artifacts. */
export async function deleteAccountRow(db: Queryable, accountId: string): Promise<void> {
  await db.query('delete from accounts where id = $1', [accountId]);
}

/** The ids of the account's profiles (whose browser data lives on disk). */
export async function profileIdsOfAccount(db: Queryable, accountId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>('select id from profiles where account_id = $1', [accountId]);
  return rows.map((row) => row.id);
}
