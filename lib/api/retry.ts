import type { ApiError } from './errors';

/** Two retries at most: three attempts in all. */
export const MAX_RETRIES = 2;
const BASE_DELAY_MS = 300;
const MAX_DELAY_MS = 3000;
const TRANSIENT_STATUSES = [502, 503, 504];

/**
 * Whether a failed attempt is worth repeating. Every call the client makes is safe to repeat (POSTs carry an
 * idempotency key), so only the failure matters: a lost connection or a gateway that could not reach the
 * service. Timeouts are not repeated (a long-poll would loop), nor is a 503 where the service itself says
 * it has no browser, nor 429 (its Retry-After is for the caller to honour).
 */
export function isTransient(error: ApiError): boolean {
  return (
    error.code === 'network_error' ||
    (TRANSIENT_STATUSES.includes(error.status) && error.code !== 'browser_unavailable')
  );
}

/** Exponential backoff with equal jitter: retry n waits between half and all of min(cap, base·2ⁿ). */
export function backoffDelay(retry: number, random: () => number): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** retry);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
