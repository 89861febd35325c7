import { mayCall } from '../../lib/api/permissions';
import type { UsageRow } from '../../lib/api/schemas/usage';
import { deleteAccount } from '../accounts/delete-account';
import { hashPassword } from '../accounts/passwords';
import { HOURLY_LIMITS } from '../accounts/plans';
import type { AppDeps } from '../http/deps';
import { ProblemError } from '../http/problem';
import { type DashboardAccount, setFirstSignIn, setPasswordHash } from '../store/dashboard-accounts';
import { requestsPerMinute } from '../store/request-counts';
import { endSignInsOfMember } from '../store/sign-ins';
import { requestsPerKey, requestsPerMember } from '../store/usage';
import { checkPassword } from './password-check';
import type { DashboardHandlers } from './route';
import { clearSignInCookie } from './sign-in-cookie';
import { signIn } from './signed-in';

/** An account made on the command line, signed in by a link, sets the email and password it will sign in with. */
async function setFirstPassword(
  { db }: Pick<AppDeps, 'db'>,
  account: DashboardAccount,
  email: string | undefined,
  hash: string,
): Promise<void> {
  if (email === undefined) {
    const message = 'Enter the email you will sign in with.';
    throw new ProblemError({
      status: 422,
      code: 'validation_failed',
      detail: message,
      errors: [{ path: 'email', message }],
    });
  }
  if (!(await setFirstSignIn(db, account.member.id, email, hash)))
    throw new ProblemError({
      status: 409,
      code: 'conflict',
      detail: `${email} already signs in to the dashboard: choose another email.`,
    });
}

/** What the signed-in account uses, its password and its deletion. */
export const accountHandlers: DashboardHandlers<'getUsage' | 'changePassword' | 'deleteAccount'> = {
  async getUsage(_c, { account }, { db, clock }) {
    const nowMs = clock.now().getTime();
    const perMinute = await requestsPerMinute(db, account.id, nowMs);
    const [byMember, byKey] = await Promise.all([
      requestsPerMember(db, account.id, nowMs),
      requestsPerKey(db, account.id, nowMs),
    ]);
    const shown = (row: UsageRow) => mayCall(account.role, 'getUsage') || row.member_id === account.member.id;
    return {
      plan: account.plan,
      hourly_limit: HOURLY_LIMITS[account.plan],
      used_last_hour: perMinute.reduce((sum, count) => sum + count, 0),
      per_minute: perMinute,
      by_member: byMember.filter(shown),
      by_key: byKey.filter(shown),
    };
  },

  async changePassword(c, { account, body }, deps) {
    const hash = await hashPassword(body.new_password);
    if (account.has_password) {
      await checkPassword(c, deps, account, body.current_password ?? '', 'current_password');
      await setPasswordHash(deps.db, account.member.id, hash);
    } else await setFirstPassword(deps, account, body.email, hash);
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
