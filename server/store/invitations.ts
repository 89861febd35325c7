import type { Role, Scope } from '../../lib/api/roles';
import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';
import { hashToken, newToken } from './sign-ins';

/** How long an invitation's link works, unless it is used first. */
export const INVITATION_LIFETIME_MS = 7 * 86_400_000;

export interface InvitationOffer {
  accountId: string;
  email: string;
  role: Role;
  scope: Scope | null;
}

/** A one-time link's token for an invitation: stored only as its SHA-256, so a copy of the database invites no one. */
export async function createInvitation(
  db: Queryable,
  clock: Clock,
  offer: InvitationOffer & { invitedBy: string },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_LIFETIME_MS);
  await db.query(
    `insert into invitations (token_hash, account_id, email, role, scope, invited_by, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      hashToken(token),
      offer.accountId,
      offer.email,
      offer.role,
      JSON.stringify(offer.scope),
      offer.invitedBy,
      now,
      expiresAt,
    ],
  );
  return { token, expiresAt };
}

/** What a link offers and in which workspace (its name), or why it cannot be used. */
export type InvitationVerdict = (InvitationOffer & { workspace: string }) | 'unknown' | 'used' | 'expired';

async function lookUp(db: Queryable, clock: Clock, token: string, lock: boolean): Promise<InvitationVerdict> {
  const [row] = await db.query<{
    account_id: string;
    workspace: string;
    email: string;
    role: Role;
    scope: Scope | null;
    expires_at: Date;
    used_at: Date | null;
  }>(
    `select i.account_id, a.name as workspace, i.email, i.role, i.scope, i.expires_at, i.used_at
       from invitations i join accounts a on a.id = i.account_id
      where i.token_hash = $1 ${lock ? 'for update of i' : ''}`,
    [hashToken(token)],
  );
  if (!row) return 'unknown';
  if (row.used_at) return 'used';
  if (row.expires_at <= clock.now()) return 'expired';
  const { account_id: accountId, workspace, email, role, scope } = row;
  return { accountId, workspace, email, role, scope };
}

/** What an invitation's link offers, without spending it: for the page where the person chooses a password. */
export const peekInvitation = (db: Queryable, clock: Clock, token: string) => lookUp(db, clock, token, false);

/**
 * Spends an invitation's link: what it offers, or why it cannot be used. The link is marked used in the same
 * transaction as the member it makes, so that it makes one member, once.
 */
export async function spendInvitation(
  db: Queryable,
  clock: Clock,
  token: string,
): Promise<InvitationVerdict> {
  const verdict = await lookUp(db, clock, token, true);
  if (typeof verdict !== 'string')
    await db.query('update invitations set used_at = $2 where token_hash = $1', [
      hashToken(token),
      clock.now(),
    ]);
  return verdict;
}
