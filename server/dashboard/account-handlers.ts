import { deleteAccount } from '../accounts/delete-account';
import { hashPassword } from '../accounts/passwords';
import { HOURLY_LIMITS } from '../accounts/plans';
import { setPasswordHash } from '../store/dashboard-accounts';
import { MINUTES_PER_HOUR, requestsPerMinute } from '../store/request-counts';
import { endSignInsOfMember } from '../store/sign-ins';
import { checkPassword } from './password-check';
import type { DashboardHandlers } from './route';
import { clearSignInCookie } from './sign-in-cookie';
import { signIn } from './signed-in';

/** What the signed-in account uses, its password and its deletion. */
export const accountHandlers: DashboardHandlers<'getUsage' | 'changePassword' | 'deleteAccount'> = {
  async getUsage(_c, { account: { id, plan } }, { db, clock }) {
    const limit = HOURLY_LIMITS[plan];
    const perMinute =
      limit === null
        ? new Array<number>(MINUTES_PER_HOUR).fill(0)
        : await requestsPerMinute(db, id, clock.now().getTime());
    return {
      plan,
      hourly_limit: limit,
      used_last_hour: perMinute.reduce((sum, count) => sum + count, 0),
      per_minute: perMinute,
    };
  },

  async changePassword(c, { account, body }, deps) {
    await checkPassword(c, deps, account, body.current_password, 'current_password');
    await setPasswordHash(deps.db, account.member.id, await hashPassword(body.new_password));
    // Every other browser signed in with the old password is signed out; this one gets a new sign-in.
    await endSignInsOfMember(deps.db, account.member.id);
    await signIn(c, deps, account);
    return undefined;
  },

  async deleteAccount(c, { account, body }, deps) {
    await checkPassword(c, deps, account, body.password, 'password');
    await deleteAccount(deps, account.id);
    clearSignInCookie(c);
    return undefined;
  },
};
