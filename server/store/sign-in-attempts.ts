import type { Queryable } from '../db/driver';

export interface AttemptLimitSettings {
  windowMs: number;
  perAddress: number;
  /** From one address for one email. */
  perAddressAndEmail: number;
  /** For one email from every address together. */
  perEmail: number;
}

/** An attempt counted (its id, to forget it if it succeeds), or the milliseconds to wait before one more. */
export type CountedAttempt = { id: string } | { waitMs: number };

/** Counts an attempt at `nowMs` unless a limit is reached: one call of `count_sign_in_attempt` (migration 012). */
export async function countSignInAttempt(
  db: Queryable,
  address: string,
  email: string,
  nowMs: number,
  limits: AttemptLimitSettings,
): Promise<CountedAttempt> {
  const [row] = await db.query<{ attempt_id: string | null; wait_ms: string | null }>(
    'select attempt_id::text, wait_ms::text from count_sign_in_attempt($1, $2, $3, $4, $5, $6, $7)',
    [
      address,
      email.toLowerCase(),
      nowMs,
      limits.windowMs,
      limits.perAddress,
      limits.perAddressAndEmail,
      limits.perEmail,
    ],
  );
  if (!row) throw new Error('count_sign_in_attempt answered no row');
  return row.attempt_id === null ? { waitMs: Number(row.wait_ms) } : { id: row.attempt_id };
}

/** The attempts counted from one address since `sinceMs`. */
export async function attemptsFromAddress(db: Queryable, address: string, sinceMs: number): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    'select count(*)::int as count from sign_in_attempts where address = $1 and at_ms > $2',
    [address, sinceMs],
  );
  return row?.count ?? 0;
}

/** A successful attempt no longer counts toward any limit. */
export async function forgetSignInAttempt(db: Queryable, id: string): Promise<void> {
  await db.query('delete from sign_in_attempts where id = $1', [id]);
}
