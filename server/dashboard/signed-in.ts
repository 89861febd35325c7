import type { Context, MiddlewareHandler } from 'hono';
import type { AppDeps } from '../http/deps';
import type { AppEnv } from '../http/env';
import { ProblemError } from '../http/problem';
import { type DashboardAccount, findDashboardAccount } from '../store/dashboard-accounts';
import { findSignIn, startSignIn } from '../store/sign-ins';
import { readSignInCookie, setSignInCookie } from './sign-in-cookie';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** The member signed in with the request's cookie, and their workspace, or null. */
export async function signedInAccount(
  c: Context<AppEnv>,
  { db, clock }: Deps,
): Promise<DashboardAccount | null> {
  const token = readSignInCookie(c);
  const memberId = token ? await findSignIn(db, clock, token) : null;
  return memberId ? findDashboardAccount(db, memberId) : null;
}

/** The account signed in, as the pages are told it. */
export function signedInAs({ email, plan, role, has_password }: DashboardAccount) {
  return { email, plan, role, has_password };
}

/** The guard of the endpoints declared `signedIn`: puts the account on the context, or answers 401. */
export function signedIn(deps: Deps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const account = await signedInAccount(c, deps);
    if (!account) throw new ProblemError({ status: 401, code: 'unauthorized', detail: 'Sign in first.' });
    c.set('dashboardAccount', account);
    return next();
  };
}

/** Signs this browser in as the member: a new sign-in in its cookie, in place of the one the cookie held. */
export async function signIn(
  c: Context<AppEnv>,
  { db, clock }: Deps,
  account: DashboardAccount,
): Promise<void> {
  const member = { accountId: account.id, memberId: account.member.id };
  const { token, expiresAt } = await startSignIn(db, clock, member, readSignInCookie(c));
  setSignInCookie(c, token, expiresAt);
}
