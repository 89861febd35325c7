import type { StopReason } from '../store/sessions';

/** How many times a run is queued again after a passing failure, and how long each waits before it may run. */
export const RETRY_BACKOFF_MS = [2000, 8000] as const;

/** Network errors that say the way to the site timed out (a proxy or its link), not that the site refused. */
const TIMED_OUT =
  /net::ERR_(TIMED_OUT|CONNECTION_TIMED_OUT|PROXY_CONNECTION_FAILED|SOCKS_CONNECTION_FAILED)\b/;

/**
 * Whether a failed run may well succeed if run again: its browser crashed, its node was lost, or its proxy timed
 * out. A script's own failure (a missing element, a refused site) is not passing, nor a browser that cannot start.
 */
export function isPassingFailure(failure: { error: string | null; sessionEnd: StopReason | null }): boolean {
  if (failure.sessionEnd === 'browser_exited' || failure.sessionEnd === 'node_lost') return true;
  return failure.error !== null && TIMED_OUT.test(failure.error);
}

/** When a run that failed for a passing reason after `retries` retries may run again; null: it fails for good. */
export function retryAt(retries: number, now: Date): Date | null {
  const wait = RETRY_BACKOFF_MS[retries];
  return wait === undefined ? null : new Date(now.getTime() + wait);
}
