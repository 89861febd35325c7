import type { Queryable } from '../db/driver';
import {
  type AttemptLimitSettings,
  attemptsFromAddress,
  countSignInAttempt,
  forgetSignInAttempt,
} from '../store/sign-in-attempts';

/** Failed sign-in and sign-up attempts allowed from one client address in ATTEMPT_WINDOW_MS, whatever the email. */
export const ATTEMPTS_PER_ADDRESS = 30;
/** Failed attempts allowed from one client address for one email in ATTEMPT_WINDOW_MS. */
export const ATTEMPTS_PER_EMAIL = 10;
/**
 * Failed attempts allowed for one email from all addresses together: guessing one account's password from many
 * addresses is bounded, yet one address (contributing at most ATTEMPTS_PER_EMAIL) can never lock it for others.
 */
export const ATTEMPTS_PER_EMAIL_EVERYWHERE = 100;
export const ATTEMPT_WINDOW_MS = 15 * 60 * 1000;

const LIMITS: AttemptLimitSettings = {
  windowMs: ATTEMPT_WINDOW_MS,
  perAddress: ATTEMPTS_PER_ADDRESS,
  perAddressAndEmail: ATTEMPTS_PER_EMAIL,
  perEmail: ATTEMPTS_PER_EMAIL_EVERYWHERE,
};

/** Refusals remembered per database (so per service), at most this many at once. */
const REMEMBERED_REFUSALS = 10_000;
const refusals = new WeakMap<Queryable, Map<string, number>>();

/** An attempt under way: succeeded() takes it off the count. */
export interface Attempt {
  succeeded(): Promise<void>;
}

/**
 * Limits sign-in and sign-up attempts, so passwords cannot be guessed at speed against one account nor from one
 * address against many. Counted in the database, so the limits hold across processes and restarts. Every attempt
 * counts while it runs, whether the email has an account or not (the limit itself tells nothing about which emails
 * have one); a successful sign-in is then taken off, so a person signing in often is never locked out.
 */
export class AttemptLimits {
  constructor(private readonly db: Queryable) {}

  /**
   * Counts an attempt; answers the whole seconds to wait when over a limit. A refusal is remembered here until its
   * wait is over, so that a flood of guesses past the limit costs the database nothing.
   */
  async attempt(address: string, email: string, nowMs: number): Promise<Attempt | { waitSeconds: number }> {
    const key = `${address}\n${email.toLowerCase()}`;
    const remembered = Math.max(this.refused().get(key) ?? 0, this.refused().get(address) ?? 0);
    if (remembered > nowMs) return waitFor(remembered - nowMs);
    const counted = await countSignInAttempt(this.db, address, email, nowMs, LIMITS);
    if ('waitMs' in counted) {
      this.remember(key, nowMs + counted.waitMs, nowMs);
      // Refused for the address as a whole: its guesses with ever new emails (or link tokens) are refused here too.
      if ((await attemptsFromAddress(this.db, address, nowMs - ATTEMPT_WINDOW_MS)) >= ATTEMPTS_PER_ADDRESS)
        this.remember(address, nowMs + counted.waitMs, nowMs);
      return waitFor(counted.waitMs);
    }
    return { succeeded: () => forgetSignInAttempt(this.db, counted.id) };
  }

  private refused(): Map<string, number> {
    const refused = refusals.get(this.db) ?? new Map<string, number>();
    refusals.set(this.db, refused);
    return refused;
  }

  private remember(key: string, untilMs: number, nowMs: number): void {
    const refused = this.refused();
    if (refused.size >= REMEMBERED_REFUSALS)
      for (const [each, until] of refused) if (until <= nowMs) refused.delete(each);
    if (refused.size < REMEMBERED_REFUSALS) refused.set(key, untilMs);
  }
}

const waitFor = (ms: number) => ({ waitSeconds: Math.max(1, Math.ceil(ms / 1000)) });
