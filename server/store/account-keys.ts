import type { DashboardKey } from '../../lib/dashboard/schemas';
import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';
import { insertKey } from './accounts';

interface KeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const KEY_COLUMNS = 'id, name, prefix, created_at, last_used_at, expires_at, revoked_at';

/** An account's own keys, newest first, as the dashboard lists them (never the key or its hash). */
export async function listKeysOfAccount(db: Queryable, accountId: string): Promise<DashboardKey[]> {
  const rows = await db.query<KeyRow>(
    `select ${KEY_COLUMNS} from api_keys where account_id = $1 order by created_at desc, id`,
    [accountId],
  );
  return rows.map(toDashboardKey);
}

/**
 * Inserts a key of a member made at `now`, expiring `expiresInDays` later when given: its id, prefix and expiry,
 * and the key itself (for the answer only).
 */
export async function insertExpiringKey(
  db: Queryable,
  now: Date,
  options: { accountId: string; memberId: string; name: string; expiresInDays: number | null },
): Promise<{ id: string; key: string; prefix: string; expiresAt: Date | null }> {
  const { accountId, memberId, name, expiresInDays } = options;
  const expiresAt = expiresInDays === null ? null : new Date(now.getTime() + expiresInDays * 86_400_000);
  const inserted = await insertKey(db, { accountId, memberId, name, createdAt: now, expiresAt });
  return { ...inserted, expiresAt };
}

/** A new key of a member of the account, expiring after `expiresInDays` when given; the key is in the answer only. */
export async function createKeyOfMember(
  db: Queryable,
  clock: Clock,
  { accountId, memberId }: { accountId: string; memberId: string },
  options: { name: string; expiresInDays: number | null },
): Promise<DashboardKey & { key: string }> {
  const now = clock.now();
  const { id, key, prefix, expiresAt } = await insertExpiringKey(db, now, {
    accountId,
    memberId,
    ...options,
  });
  return {
    ...toDashboardKey({
      id,
      name: options.name,
      prefix,
      created_at: now,
      last_used_at: null,
      expires_at: expiresAt,
      revoked_at: null,
    }),
    key,
  };
}

/** Revokes one of the account's keys (safe to repeat); null when the account has no key with this id. */
export async function revokeKeyOfAccount(
  db: Queryable,
  clock: Clock,
  accountId: string,
  keyId: string,
): Promise<DashboardKey | null> {
  const [row] = await db.query<KeyRow>(
    `update api_keys set revoked_at = coalesce(revoked_at, $3)
      where account_id = $1 and id = $2 returning ${KEY_COLUMNS}`,
    [accountId, keyId, clock.now()],
  );
  return row ? toDashboardKey(row) : null;
}

/** Revokes every key of the account at once. */
export async function revokeKeysOfAccount(db: Queryable, clock: Clock, accountId: string): Promise<void> {
  await db.query('update api_keys set revoked_at = coalesce(revoked_at, $2) where account_id = $1', [
    accountId,
    clock.now(),
  ]);
}

/** Records that a key was used at `at` (an earlier time never overwrites a later one). */
export async function recordKeyUsed(db: Queryable, keyId: string, at: Date): Promise<void> {
  await db.query('update api_keys set last_used_at = greatest(last_used_at, $2) where id = $1', [keyId, at]);
}

function toDashboardKey(row: KeyRow): DashboardKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}
