import { type Context, Hono, type MiddlewareHandler } from 'hono';
import {
  ChangePasswordInput,
  CreateKeyInput,
  type DashboardStatus,
  DeleteAccountInput,
  SignInInput,
  SignUpInput,
  type Usage,
} from '../../lib/dashboard/schemas';
import { deleteAccount } from '../accounts/delete-account';
import { decoyHash, hashPassword, verifyPassword } from '../accounts/passwords';
import { HOURLY_LIMITS } from '../accounts/plans';
import type { Clock } from '../core/clock';
import type { Job } from '../core/lifecycle';
import { formatWait } from '../core/wait';
import type { Database } from '../db/driver';
import { clientAddress } from '../http/client-address';
import type { AppDeps } from '../http/deps';
import type { AppEnv } from '../http/env';
import { ProblemError } from '../http/problem';
import { ServedNames } from '../http/served-names';
import { readJsonBody } from '../http/validate';
import { createKeyOfAccount, listKeysOfAccount, revokeKeyOfAccount } from '../store/account-keys';
import {
  createEmailAccount,
  findDashboardAccount,
  findPasswordOfAccount,
  findPasswordOfEmail,
  setPasswordHash,
} from '../store/dashboard-accounts';
import { MINUTES_PER_HOUR, requestsPerMinute } from '../store/request-counts';
import { listSessions } from '../store/sessions';
import {
  deleteExpiredSignIns,
  endSignIn,
  endSignInsOfAccount,
  findSignIn,
  startSignIn,
} from '../store/sign-ins';
import { AttemptLimits } from './attempts';
import { noApiKeys, sameOriginOnly } from './guards';
import { clearSignInCookie, readSignInCookie, setSignInCookie } from './sign-in-cookie';

/**
 * The dashboard's own JSON endpoints under /dashboard/api: sign-up, sign-in and out, the account's keys, its
 * running sessions, its usage, its password and its deletion. Not part of the /v1 API: they take the sign-in cookie, never a key.
 */
export function dashboardApi(deps: AppDeps): Hono<AppEnv> {
  const { db, clock, config } = deps;
  const attempts = new AttemptLimits(db);
  const api = new Hono<AppEnv>();
  api.use('*', noApiKeys(), sameOriginOnly(new ServedNames(config), config.port), async (c, next) => {
    await next();
    // Answers hold keys and account details: no cache keeps them.
    c.header('Cache-Control', 'no-store');
  });

  /**
   * Counts an attempt at a password for this email; past the limits, 429 whether or not the email has an account.
   * The caller takes a successful sign-in off the count.
   */
  const limitAttempts = async (c: Context<AppEnv>, email: string) => {
    const attempt = await attempts.attempt(clientAddress(c), email, clock.now().getTime());
    if ('succeeded' in attempt) return attempt;
    throw new ProblemError({
      status: 429,
      code: 'rate_limited',
      detail: `Too many attempts; try again in ${formatWait(attempt.waitSeconds)}.`,
      headers: { 'Retry-After': String(attempt.waitSeconds) },
    });
  };

  /** The account signed in with the request's cookie, or null. */
  const signedInAccount = async (c: Context<AppEnv>) => {
    const token = readSignInCookie(c);
    const accountId = token ? await findSignIn(db, clock, token) : null;
    return accountId ? findDashboardAccount(db, accountId) : null;
  };

  const signedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
    const account = await signedInAccount(c);
    if (!account) throw new ProblemError({ status: 401, code: 'unauthorized', detail: 'Sign in first.' });
    c.set('dashboardAccount', account);
    return next();
  };

  const signIn = async (c: Context<AppEnv>, accountId: string) => {
    const { token, expiresAt } = await startSignIn(db, clock, accountId, readSignInCookie(c));
    setSignInCookie(c, token, expiresAt);
  };

  api.get('/status', async (c) => {
    const account = await signedInAccount(c);
    const status: DashboardStatus = {
      signup: config.signup,
      account: account ? { email: account.email, plan: account.plan } : null,
    };
    return c.json(status);
  });

  api.post('/sign-up', async (c) => {
    const { email, password } = await readJsonBody(c, SignUpInput);
    if (config.signup === 'closed') {
      throw new ProblemError({
        status: 403,
        code: 'forbidden',
        detail: 'Sign-up is closed on this service: ask its operator for an account.',
      });
    }
    // A sign-up stays counted even when it succeeds: it tells whether an email has an account (409).
    await limitAttempts(c, email);
    const account = await createEmailAccount(db, clock, email, await hashPassword(password));
    if (!account) {
      throw new ProblemError({
        status: 409,
        code: 'conflict',
        detail: 'This email already has an account: sign in instead.',
      });
    }
    await signIn(c, account.id);
    return c.json({ email: account.email, plan: account.plan }, 201);
  });

  api.post('/sign-in', async (c) => {
    const { email, password } = await readJsonBody(c, SignInInput);
    const attempt = await limitAttempts(c, email);
    const account = await findPasswordOfEmail(db, email);
    // An unknown email costs a hash too, so the answer's time does not tell which emails have accounts.
    const matches = await verifyPassword(password, account?.password_hash ?? (await decoyHash()));
    if (!account || !matches) {
      throw new ProblemError({
        status: 401,
        code: 'unauthorized',
        detail: 'The email or the password is not right.',
      });
    }
    await attempt.succeeded();
    await signIn(c, account.id);
    return c.json({ email: account.email, plan: account.plan });
  });

  api.post('/sign-out', async (c) => {
    const token = readSignInCookie(c);
    if (token) await endSignIn(db, token);
    clearSignInCookie(c);
    return c.body(null, 204);
  });

  api.get('/keys', signedIn, async (c) =>
    c.json({ data: await listKeysOfAccount(db, c.get('dashboardAccount').id) }),
  );

  api.post('/keys', signedIn, async (c) => {
    const { name, expires_in_days } = await readJsonBody(c, CreateKeyInput);
    const created = await createKeyOfAccount(db, clock, c.get('dashboardAccount').id, {
      name,
      expiresInDays: expires_in_days ?? null,
    });
    return c.json(created, 201);
  });

  api.delete('/keys/:id', signedIn, async (c) => {
    const revoked = await revokeKeyOfAccount(db, clock, c.get('dashboardAccount').id, c.req.param('id'));
    if (!revoked)
      throw new ProblemError({ status: 404, code: 'not_found', detail: 'There is no key with this id.' });
    return c.json(revoked);
  });

  // Read like GET /v1/sessions?status=running, with each session's live view addresses made for this origin.
  api.get('/sessions', signedIn, async (c) => {
    const origin = new URL(c.req.url).origin;
    const filter = { limit: 100, after: null, status: 'running' as const };
    const page = await listSessions(db, c.get('dashboardAccount').id, filter, (row) =>
      deps.sessions.view(row, origin),
    );
    return c.json({ data: page.data });
  });

  api.get('/usage', signedIn, async (c) => {
    const { id, plan } = c.get('dashboardAccount');
    const limit = HOURLY_LIMITS[plan];
    const perMinute =
      limit === null
        ? new Array<number>(MINUTES_PER_HOUR).fill(0)
        : await requestsPerMinute(db, id, clock.now().getTime());
    const usage: Usage = {
      plan,
      hourly_limit: limit,
      used_last_hour: perMinute.reduce((sum, count) => sum + count, 0),
      per_minute: perMinute,
    };
    return c.json(usage);
  });

  api.put('/password', signedIn, async (c) => {
    const { current_password, new_password } = await readJsonBody(c, ChangePasswordInput);
    const account = c.get('dashboardAccount');
    await checkPassword(c, account, current_password, 'current_password');
    await setPasswordHash(db, account.id, await hashPassword(new_password));
    // Every other browser signed in with the old password is signed out; this one gets a new sign-in.
    await endSignInsOfAccount(db, account.id);
    await signIn(c, account.id);
    return c.body(null, 204);
  });

  api.delete('/account', signedIn, async (c) => {
    const { password } = await readJsonBody(c, DeleteAccountInput);
    const account = c.get('dashboardAccount');
    await checkPassword(c, account, password, 'password');
    await deleteAccount(deps, account.id);
    clearSignInCookie(c);
    return c.body(null, 204);
  });

  /** The signed-in person confirms with their password (limited like a sign-in); a wrong one is a 422 on the field. */
  async function checkPassword(
    c: Context<AppEnv>,
    account: { id: string; email: string },
    password: string,
    field: string,
  ): Promise<void> {
    const attempt = await limitAttempts(c, account.email);
    const stored = await findPasswordOfAccount(db, account.id);
    if (stored && (await verifyPassword(password, stored))) return attempt.succeeded();
    const message = 'This is not your current password.';
    throw new ProblemError({
      status: 422,
      code: 'validation_failed',
      detail: message,
      errors: [{ path: field, message }],
    });
  }

  return api;
}

/** Expired sign-ins are refused as they are read; their rows are deleted once an hour. */
export function expireSignInsHourly(db: Database, clock: Clock): Job {
  return {
    name: 'expired sign-ins',
    start: () => deleteExpiredSignIns(db, clock),
    every: { ms: 3600 * 1000, run: () => void deleteExpiredSignIns(db, clock).catch(() => {}) },
  };
}
