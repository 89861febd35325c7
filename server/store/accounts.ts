import type { Plan } from '../../lib/api/schemas/account';
import {
  generateApiKey,
  hashApiKey,
  isWellFormedKey,
  KEY_PREFIX_LENGTH,
  keyPrefix,
  sameHash,
} from '../accounts/api-keys';
import type { Clock } from '../clock';
import type { Database, Queryable } from '../db/driver';
import { newId } from '../ids';

export interface AccountOfKey {
  id: string;
  name: string;
  plan: Plan;
  created_at: Date;
  key_prefix: string;
}

export type KeyLookup = { account: AccountOfKey } | { failure: 'unknown' | 'revoked' };

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

/** Finds the account of a presented key: looked up by its display prefix, then its hash compared in constant time. */
export async function findAccountByKey(db: Queryable, key: string): Promise<KeyLookup> {
  if (!isWellFormedKey(key)) return { failure: 'unknown' };
  const rows = await db.query<AccountOfKey & { hash: string; revoked_at: Date | null }>(
    `select a.id, a.name, a.plan, a.created_at, k.prefix as key_prefix, k.hash, k.revoked_at
       from api_keys k join accounts a on a.id = k.account_id
      where k.prefix = $1`,
    [keyPrefix(key)],
  );
  const row = rows[0];
  if (!row || !sameHash(row.hash, hashApiKey(key))) return { failure: 'unknown' };
  if (row.revoked_at) return { failure: 'revoked' };
  const { hash: _hash, revoked_at: _revoked, ...account } = row;
  return { account };
}

/** Creates an account with the plan and its first key; the key itself is returned once and stored only hashed. */
export async function createAccountWithKey(
  db: Database,
  clock: Clock,
  options: { plan: Plan; name?: string },
): Promise<CreatedKey> {
  const now = clock.now();
  const accountId = newId('acc');
  const name = options.name?.trim() || `${options.plan} account`;
  return db.transaction(async (tx) => {
    await tx.query('insert into accounts (id, name, plan, created_at) values ($1, $2, $3, $4)', [
      accountId,
      name,
      options.plan,
      now,
    ]);
    // The display prefix is unique; on the rare clash (4 random characters) draw another key.
    for (;;) {
      const key = generateApiKey();
      const inserted = await tx.query(
        `insert into api_keys (id, account_id, name, prefix, hash, created_at)
         values ($1, $2, $3, $4, $5, $6) on conflict (prefix) do nothing returning id`,
        [newId('key'), accountId, name, keyPrefix(key), hashApiKey(key), now],
      );
      if (inserted.length > 0)
        return { key, prefix: keyPrefix(key), account_id: accountId, plan: options.plan, name };
    }
  });
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

/** The plan of an account, or null when it no longer exists. */
export async function findPlan(db: Queryable, accountId: string): Promise<Plan | null> {
  const [row] = await db.query<{ plan: Plan }>('select plan from accounts where id = $1', [accountId]);
  return row?.plan ?? null;
}
