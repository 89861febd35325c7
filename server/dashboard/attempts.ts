import { SlidingWindowLimiter } from '../http/sliding-window';

/** Sign-in and sign-up attempts allowed per email in ATTEMPT_WINDOW_MS, whoever makes them. */
export const ATTEMPTS_PER_EMAIL = 10;
/** Sign-in and sign-up attempts allowed per client address in ATTEMPT_WINDOW_MS, whatever the email. */
export const ATTEMPTS_PER_ADDRESS = 30;
export const ATTEMPT_WINDOW_MS = 15 * 60 * 1000;

/**
 * Limits sign-in and sign-up attempts, so passwords cannot be guessed at speed against one account (from many
 * addresses) nor from one address (against many accounts). Every attempt counts, whether the email has an
 * account or not, so the limit itself tells nothing about which emails have one.
 */
export class AttemptLimits {
  private readonly byEmail = new SlidingWindowLimiter(ATTEMPT_WINDOW_MS);
  private readonly byAddress = new SlidingWindowLimiter(ATTEMPT_WINDOW_MS);

  /** Counts an attempt; answers the seconds to wait when over either limit, or null to go ahead. */
  attempt(address: string, email: string, nowMs: number): number | null {
    const fromAddress = this.byAddress.hit(address, ATTEMPTS_PER_ADDRESS, nowMs);
    if (!fromAddress.allowed) return fromAddress.resetSeconds;
    const forEmail = this.byEmail.hit(email.toLowerCase(), ATTEMPTS_PER_EMAIL, nowMs);
    return forEmail.allowed ? null : forEmail.resetSeconds;
  }
}
