import type { Context } from 'hono';
import { verifyPassword } from '../accounts/passwords';
import { formatWait } from '../core/wait';
import { limitedClient } from '../http/client-address';
import type { AppDeps } from '../http/deps';
import type { AppEnv } from '../http/env';
import { ProblemError } from '../http/problem';
import { type DashboardAccount, findPasswordOfMember } from '../store/dashboard-accounts';
import { type Attempt, AttemptLimits } from './attempts';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * Counts an attempt at a password for this email; past the limits, 429 whether or not the email has an account.
 * The caller takes a successful sign-in off the count.
 */
export async function limitAttempts(
  c: Context<AppEnv>,
  { db, clock }: Deps,
  email: string,
): Promise<Attempt> {
  const attempt = await new AttemptLimits(db).attempt(limitedClient(c), email, clock.now().getTime());
  if ('succeeded' in attempt) return attempt;
  throw new ProblemError({
    status: 429,
    code: 'rate_limited',
    detail: `Too many attempts; try again in ${formatWait(attempt.waitSeconds)}.`,
    headers: { 'Retry-After': String(attempt.waitSeconds) },
  });
}

/** The signed-in person confirms with their password (limited like a sign-in); a wrong one is a 422 on the field. */
export async function checkPassword(
  c: Context<AppEnv>,
  deps: Deps,
  account: Pick<DashboardAccount, 'email' | 'member'>,
  password: string,
  field: string,
): Promise<void> {
  const attempt = await limitAttempts(c, deps, account.email);
  const stored = await findPasswordOfMember(deps.db, account.member.id);
  if (stored && (await verifyPassword(password, stored))) return attempt.succeeded();
  const message = 'This is not your current password.';
  throw new ProblemError({
    status: 422,
    code: 'validation_failed',
    detail: message,
    errors: [{ path: field, message }],
  });
}
