import type { Queryable } from '../db/driver';

/** An answer kept for replay: its status, the headers that are replayed, and the body as sent. */
export interface StoredAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export type KeyClaim =
  | { claimed: true }
  | { claimed: false; fingerprint: string; state: 'in_flight' | 'done'; answer: StoredAnswer }
  | { claimed: false; released: true };

/**
 * Claims an account's Idempotency-Key for a request (or takes over a claim older than `expiredBefore`), or
 * reads the earlier request that holds it; `released` when that request let go of it between the two reads.
 */
export async function claimIdempotencyKey(
  db: Queryable,
  claim: { accountId: string; key: string; fingerprint: string; now: Date; expiredBefore: Date },
): Promise<KeyClaim> {
  const claimed = await db.query(
    `insert into idempotency_records (account_id, key, fingerprint, state, created_at)
     values ($1, $2, $3, 'in_flight', $4)
     on conflict (account_id, key) do update
        set fingerprint = excluded.fingerprint, state = 'in_flight', status = null, headers = null,
            body = null, created_at = excluded.created_at
      where idempotency_records.created_at < $5
     returning 1`,
    [claim.accountId, claim.key, claim.fingerprint, claim.now, claim.expiredBefore],
  );
  if (claimed.length > 0) return { claimed: true };
  const [earlier] = await db.query<{ fingerprint: string; state: 'in_flight' | 'done' } & StoredAnswer>(
    'select fingerprint, state, status, headers, body from idempotency_records where account_id = $1 and key = $2',
    [claim.accountId, claim.key],
  );
  if (!earlier) return { claimed: false, released: true };
  const { fingerprint, state, ...answer } = earlier;
  return { claimed: false, fingerprint, state, answer };
}

export async function storeIdempotentAnswer(
  db: Queryable,
  accountId: string,
  key: string,
  answer: StoredAnswer,
): Promise<void> {
  await db.query(
    `update idempotency_records set state = 'done', status = $3, headers = $4::jsonb, body = $5
      where account_id = $1 and key = $2`,
    [accountId, key, answer.status, JSON.stringify(answer.headers), answer.body],
  );
}

/** Lets go of a key whose request failed, so that a corrected retry may use it. */
export async function releaseIdempotencyKey(db: Queryable, accountId: string, key: string): Promise<void> {
  await db.query('delete from idempotency_records where account_id = $1 and key = $2', [accountId, key]);
}

/** Drops answers created before `before`; with `inFlightToo`, also claims left by a process that died. */
export async function expireIdempotencyRecords(
  db: Queryable,
  before: Date,
  inFlightToo = false,
): Promise<void> {
  if (inFlightToo) await db.query(`delete from idempotency_records where state = 'in_flight'`);
  await db.query('delete from idempotency_records where created_at < $1', [before]);
}
