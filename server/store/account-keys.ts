import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';
import { insertKey } from './accounts';

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
): Promise<{ id: string; key: string }> {
  const now = clock.now();
  const { id, key } = await insertExpiringKey(db, now, {
    accountId,
    memberId,
    ...options,
  });
  return { id, key };
}

/** When the extension last used each of the account's keys it used (by key id). */
export async function extensionUsesOfAccount(db: Queryable, accountId: string): Promise<Map<string, Date>> {
  const rows = await db.query<{ id: string; extension_used_at: Date }>(
    'select id, extension_used_at from api_keys where account_id = $1 and extension_used_at is not null',
    [accountId],
  );
  return new Map(rows.map((row) => [row.id, row.extension_used_at]));
}

/** Revokes every key of the account at once. */
export async function revokeKeysOfAccount(db: Queryable, clock: Clock, accountId: string): Promise<void> {
  await db.query('update api_keys set revoked_at = coalesce(revoked_at, $2) where account_id = $1', [
    accountId,
    clock.now(),
  ]);
}

/**
 * Records that a key was used at `at`, by the extension or not (an earlier time never overwrites a later one).
 */
export async function recordKeyUsed(
  db: Queryable,
  keyId: string,
  at: Date,
  byExtension: boolean,
): Promise<void> {
  await db.query(
    `update api_keys set last_used_at = greatest(last_used_at, $2),
        extension_used_at = case when $3 then greatest(extension_used_at, $2) else extension_used_at end
      where id = $1`,
    [keyId, at, byExtension],
  );
}
