import type { Role, Scope } from '../../lib/api/roles';
import type { Plan } from '../../lib/api/schemas/account';
import {
  generateApiKey,
  hashApiKey,
  isWellFormedKey,
  KEY_PREFIX_LENGTH,
  keyPrefix,
  sameHash,
} from '../core/api-keys';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Database, Queryable } from '../db/driver';

/**
 * Who acts in a request: the workspace's member (a person, or an agent named by its key), with the member's role
 * and scope (null: every profile; otherwise the profiles with at least one of `scope.tags`).
 */
export interface Actor {
  member: { id: string; name: string };
  role: Role;
  scope: Scope | null;
}

/** A live key's workspace (the account: its plan and quota are the workspace's) and the actor the key is. */
export interface AccountOfKey extends Actor {
  id: string;
  name: string;
  plan: Plan;
  created_at: Date;
  key_id: string;
  key_prefix: string;
}

/** A live key's account, and when the key expires (null: never). */
export type KeyLookup =
  | { account: AccountOfKey; expiresAt: Date | null }
  | { failure: 'unknown' | 'revoked' | 'expired' };

export interface KeyListing {
  prefix: string;
  name: string;
  plan: Plan;
  account_id: string;
  created_at: string;
  revoked_at: string | null;
}

export interface CreatedKey {
  key: string;
  prefix: string;
  account_id: string;
  plan: Plan;
  name: string;
}

/**
 * Finds the account of a presented key: looked up by its display prefix, then its hash compared in constant
 * time; a revoked key, or one past its expiry at `now`, finds none.
 */
export async function findAccountByKey(db: Queryable, key: string, now: Date): Promise<KeyLookup> {
  if (!isWellFormedKey(key)) return { failure: 'unknown' };
  const rows = await db.query<
    Omit<AccountOfKey, 'member'> & {
      member_id: string;
      member_name: string;
      hash: string;
      revoked_at: Date | null;
      expires_at: Date | null;
    }
  >(
    `select a.id, a.name, a.plan, a.created_at, k.id as key_id, k.prefix as key_prefix, k.hash,
            coalesce(k.revoked_at, m.removed_at) as revoked_at, k.expires_at,
            m.id as member_id, m.name as member_name, m.role, m.scope
       from api_keys k join accounts a on a.id = k.account_id join members m on m.id = k.member_id
      where k.prefix = $1`,
    [keyPrefix(key)],
  );
  const row = rows[0];
  if (!row || !sameHash(row.hash, hashApiKey(key))) return { failure: 'unknown' };
  if (row.revoked_at) return { failure: 'revoked' };
  if (row.expires_at && row.expires_at <= now) return { failure: 'expired' };
  const { hash: _hash, revoked_at: _revoked, expires_at: expiresAt, member_id, member_name, ...rest } = row;
  return { account: { ...rest, member: { id: member_id, name: member_name } }, expiresAt };
}

/**
 * Creates an account with the plan, its owner (named as the account) and the owner's first key; the key itself is
 * returned once and stored only hashed.
 */
export function createAccountWithKey(
  db: Database,
  clock: Clock,
  options: { plan: Plan; name?: string },
): Promise<CreatedKey> {
  return db.transaction((tx) => insertAccountWithKey(tx, clock, options));
}

/** As createAccountWithKey, in the caller's transaction; `key` gives the key instead of drawing one. */
export async function insertAccountWithKey(
  tx: Queryable,
  clock: Clock,
  options: { plan: Plan; name?: string; key?: string },
): Promise<CreatedKey> {
  const now = clock.now();
  const accountId = newId('acc');
  const name = options.name?.trim() || `${options.plan} account`;
  await tx.query('insert into accounts (id, name, plan, created_at) values ($1, $2, $3, $4)', [
    accountId,
    name,
    options.plan,
    now,
  ]);
  const memberId = await insertOwner(tx, {
    accountId,
    name,
    email: null,
    passwordHash: null,
    createdAt: now,
  });
  const { key, prefix } = await insertKey(tx, {
    accountId,
    memberId,
    name,
    createdAt: now,
    expiresAt: null,
    key: options.key,
  });
  return { key, prefix, account_id: accountId, plan: options.plan, name };
}

/** Adds the owner of a new account: its first member. Answers the member's id. */
export async function insertOwner(
  db: Queryable,
  options: {
    accountId: string;
    name: string;
    email: string | null;
    passwordHash: string | null;
    createdAt: Date;
  },
): Promise<string> {
  const id = newId('mem');
  await db.query(
    `insert into members (id, account_id, name, email, password_hash, role, created_at)
     values ($1, $2, $3, $4, $5, 'owner', $6)`,
    [id, options.accountId, options.name, options.email, options.passwordHash, options.createdAt],
  );
  return id;
}

/** Adds a key of a member of the account; the key itself is returned once and stored only hashed. */
export async function insertKey(
  db: Queryable,
  options: {
    accountId: string;
    memberId: string;
    name: string;
    createdAt: Date;
    expiresAt: Date | null;
    /** A key chosen by the operator (BOOTSTRAP_KEY); without it one is drawn. */
    key?: string;
  },
): Promise<{ id: string; key: string; prefix: string }> {
  // The display prefix is unique; on the rare clash (4 random characters) draw another key.
  for (;;) {
    const key = options.key ?? generateApiKey();
    const id = newId('key');
    const inserted = await db.query(
      `insert into api_keys (id, account_id, member_id, name, prefix, hash, created_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict (prefix) do nothing returning id`,
      [
        id,
        options.accountId,
        options.memberId,
        options.name,
        keyPrefix(key),
        hashApiKey(key),
        options.createdAt,
        options.expiresAt,
      ],
    );
    if (inserted.length > 0) return { id, key, prefix: keyPrefix(key) };
    if (options.key) throw new Error('The chosen key begins like a key another account holds.');
  }
}

export async function listKeys(db: Queryable): Promise<KeyListing[]> {
  const rows = await db.query<{
    prefix: string;
    name: string;
    plan: Plan;
    account_id: string;
    created_at: Date;
    revoked_at: Date | null;
  }>(
    `select k.prefix, k.name, a.plan, a.id as account_id, k.created_at, k.revoked_at
       from api_keys k join accounts a on a.id = k.account_id
      order by k.created_at, k.prefix`,
  );
  return rows.map((row) => ({
    ...row,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
  }));
}

/** Revokes the key with this display prefix (a whole key is accepted too). False when there is none. */
export async function revokeKey(db: Queryable, clock: Clock, prefixOrKey: string): Promise<boolean> {
  const prefix = prefixOrKey.trim().slice(0, KEY_PREFIX_LENGTH);
  const rows = await db.query(
    'update api_keys set revoked_at = coalesce(revoked_at, $2) where prefix = $1 returning id',
    [prefix, clock.now()],
  );
  return rows.length > 0;
}

/**
 * Sets the plan of the account named by its id, its email or one of its keys' prefixes (a whole key is
 * accepted too). Answers the account's id, or null when nothing matches.
 */
/** The account an operator names: its id, its email or one of its keys' prefixes (`name`, then `$1`, `$2`). */
const NAMED_ACCOUNT = `(select id from accounts where id = $1 or lower(email) = lower($1)
  union select account_id from api_keys where prefix = $2 limit 1)`;
const named = (account: string) => [account.trim(), account.trim().slice(0, KEY_PREFIX_LENGTH)];

export async function setPlan(db: Queryable, account: string, plan: Plan): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    `update accounts set plan = $3 where id = ${NAMED_ACCOUNT} returning id`,
    [...named(account), plan],
  );
  return row?.id ?? null;
}

/** The id of the account an operator names (its id, its email or one of its keys' prefixes), or null. */
export async function findAccountId(db: Queryable, account: string): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(`select id from ${NAMED_ACCOUNT} as named`, named(account));
  return row?.id ?? null;
}

/** The plan of an account, or null when it no longer exists. */
export async function findPlan(db: Queryable, accountId: string): Promise<Plan | null> {
  const [row] = await db.query<{ plan: Plan }>('select plan from accounts where id = $1', [accountId]);
  return row?.plan ?? null;
}
