import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';

/** How long a dashboard sign-in lasts; then the person signs in again. */
export const SIGN_IN_LIFETIME_MS = 12 * 3600 * 1000;

/**
 * Starts a sign-in: a new random token (256 bits) for the cookie, stored only as its SHA-256, so a copy of the
 * database signs no one in. `replacing`, the token the browser held before, is ended: each sign-in gets a new
 * token (no session fixation).
 */
export async function startSignIn(
  db: Queryable,
  clock: Clock,
  member: { accountId: string; memberId: string },
  replacing?: string,
): Promise<{ token: string; expiresAt: Date }> {
  if (replacing) await endSignIn(db, replacing);
  const token = newToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + SIGN_IN_LIFETIME_MS);
  await db.query(
    `insert into dashboard_sessions (token_hash, account_id, member_id, created_at, expires_at)
     values ($1, $2, $3, $4, $5)`,
    [hashToken(token), member.accountId, member.memberId, now, expiresAt],
  );
  return { token, expiresAt };
}

/** The member signed in with this token, unless the sign-in ended or expired. */
export async function findSignIn(db: Queryable, clock: Clock, token: string): Promise<string | null> {
  const [row] = await db.query<{ member_id: string }>(
    'select member_id from dashboard_sessions where token_hash = $1 and expires_at > $2',
    [hashToken(token), clock.now()],
  );
  return row?.member_id ?? null;
}

export async function endSignIn(db: Queryable, token: string): Promise<void> {
  await db.query('delete from dashboard_sessions where token_hash = $1', [hashToken(token)]);
}

/** Ends every sign-in of the member (after their password changed, the other browsers are signed out). */
export async function endSignInsOfMember(db: Queryable, memberId: string): Promise<void> {
  await db.query('delete from dashboard_sessions where member_id = $1', [memberId]);
}

export async function deleteExpiredSignIns(db: Queryable, clock: Clock): Promise<void> {
  await db.query('delete from dashboard_sessions where expires_at <= $1', [clock.now()]);
}

/** A random token of 256 bits, for a cookie or a link. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored of a token: its SHA-256. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
