import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';
import { hashToken, newToken } from './sign-ins';

/** How long a one-time sign-in link works, unless it is used first. */
export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60 * 1000;

/**
 * A one-time dashboard sign-in link for a member (the owner of an account made on the command line): a random token (256 bits) for the link, stored only as its
 * SHA-256, so a copy of the database signs no one in.
 */
export async function createSignInLink(
  db: Queryable,
  clock: Clock,
  member: { accountId: string; memberId: string },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(clock.now().getTime() + SIGN_IN_LINK_LIFETIME_MS);
  await db.query(
    'insert into sign_in_links (token_hash, account_id, member_id, expires_at) values ($1, $2, $3, $4)',
    [hashToken(token), member.accountId, member.memberId, expiresAt],
  );
  return { token, expiresAt };
}

/** The member a link signs in, once: the link is spent by this call; null if unknown, spent or expired. */
export async function spendSignInLink(db: Queryable, clock: Clock, token: string): Promise<string | null> {
  const [row] = await db.query<{ member_id: string; expires_at: Date }>(
    'delete from sign_in_links where token_hash = $1 returning member_id, expires_at',
    [hashToken(token)],
  );
  return row && row.expires_at > clock.now() ? row.member_id : null;
}

export async function deleteExpiredSignInLinks(db: Queryable, clock: Clock): Promise<void> {
  await db.query('delete from sign_in_links where expires_at <= $1', [clock.now()]);
}
