import { hashPassword } from '../accounts/passwords';
import { acceptInvitation, readInvitation } from '../accounts/workspace';
import { findDashboardAccount } from '../store/dashboard-accounts';
import { limitAttempts } from './password-check';
import type { DashboardHandlers } from './route';
import { signedInAs, signIn } from './signed-in';

/** Wrong tokens from one address are limited as wrong passwords are, counted under this name. */
const INVITATION_LINK = 'an invitation link';

/**
 * An invitation's link on the dashboard: what it offers (read without spending it), and joining, which makes the
 * person a member with the password they chose and signs this browser in. A used or expired link is a 409 that
 * says so.
 */
export const joinHandlers: DashboardHandlers<'readInvitation' | 'join'> = {
  async readInvitation(c, { body: { token } }, deps) {
    const attempt = await limitAttempts(c, deps, INVITATION_LINK);
    const offer = await readInvitation(deps, token);
    await attempt.succeeded();
    return offer;
  },

  async join(c, { body: { token, password } }, deps) {
    const attempt = await limitAttempts(c, deps, INVITATION_LINK);
    const memberId = await acceptInvitation(deps, token, await hashPassword(password));
    await attempt.succeeded();
    const account = await findDashboardAccount(deps.db, memberId);
    if (!account) throw new Error('the member just made was not found');
    await signIn(c, deps, account);
    return signedInAs(account);
  },
};
