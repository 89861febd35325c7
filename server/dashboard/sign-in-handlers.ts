import { decoyHash, hashPassword, verifyPassword } from '../accounts/passwords';
import { ProblemError } from '../http/problem';
import { createEmailAccount, findDashboardAccount, findPasswordOfEmail } from '../store/dashboard-accounts';
import { spendSignInLink } from '../store/sign-in-links';
import { endSignIn } from '../store/sign-ins';
import { limitAttempts } from './password-check';
import type { DashboardHandlers } from './route';
import { clearSignInCookie, readSignInCookie } from './sign-in-cookie';
import { signedInAccount, signedInAs, signIn } from './signed-in';

const SIGN_IN_LINK = 'a one-time sign-in link';

/** Who is signed in; sign-up, sign-in (with a password or a one-time link) and sign-out. */
export const signInHandlers: DashboardHandlers<
  'getStatus' | 'signUp' | 'signIn' | 'signInByLink' | 'signOut'
> = {
  async getStatus(c, _input, deps) {
    const account = await signedInAccount(c, deps);
    return {
      signup: deps.config.signup,
      account: account ? signedInAs(account) : null,
    };
  },

  async signUp(c, { body: { email, password } }, deps) {
    if (deps.config.signup === 'closed') {
      throw new ProblemError({
        status: 403,
        code: 'forbidden',
        detail: 'Sign-up is closed on this service: ask its operator for an account.',
      });
    }
    // A sign-up stays counted even when it succeeds: it tells whether an email has an account (409).
    await limitAttempts(c, deps, email);
    const account = await createEmailAccount(deps.db, deps.clock, email, await hashPassword(password));
    if (!account) {
      throw new ProblemError({
        status: 409,
        code: 'conflict',
        detail: 'This email already has an account: sign in instead.',
      });
    }
    await signIn(c, deps, account);
    return signedInAs(account);
  },

  async signIn(c, { body: { email, password } }, deps) {
    const attempt = await limitAttempts(c, deps, email);
    const found = await findPasswordOfEmail(deps.db, email);
    // An unknown email costs a hash too, so the answer's time does not tell which emails have accounts.
    const matches = await verifyPassword(password, found?.password_hash ?? (await decoyHash()));
    const account = found && matches ? await findDashboardAccount(deps.db, found.member_id) : null;
    if (!account) {
      throw new ProblemError({
        status: 401,
        code: 'unauthorized',
        detail: 'The email or the password is not right.',
      });
    }
    await attempt.succeeded();
    await signIn(c, deps, account);
    return signedInAs(account);
  },

  async signInByLink(c, { body: { token } }, deps) {
    // Counted as a sign-in whose email is the link: wrong tokens from one address are limited as passwords are.
    const attempt = await limitAttempts(c, deps, SIGN_IN_LINK);
    const memberId = await spendSignInLink(deps.db, deps.clock, token);
    const account = memberId && (await findDashboardAccount(deps.db, memberId));
    if (!account) {
      throw new ProblemError({
        status: 401,
        code: 'unauthorized',
        detail:
          'This sign-in link was used already or has expired: make a new one (npm start prints one, or npm run service -- keys sign-in-link ACCOUNT).',
      });
    }
    await attempt.succeeded();
    await signIn(c, deps, account);
    return signedInAs(account);
  },

  async signOut(c, _input, { db }) {
    const token = readSignInCookie(c);
    if (token) await endSignIn(db, token);
    clearSignInCookie(c);
    return undefined;
  },
};
