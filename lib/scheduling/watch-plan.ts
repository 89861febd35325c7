import type { QuotaSnapshot } from '../api/rate-limit';

/**
 * When and how the worker next asks the service about the runs it follows, planned from the hourly quota.
 *
 * The watcher spends at most half of what remains of the hour: with `remaining` requests left (the last
 * `RateLimit` answer), it plans `remaining / 2` requests for the next hour, evenly spaced, and re-plans after
 * every answer. What the person (or another device) spends lowers `remaining`, so the watcher slows down at
 * once; what the rolling window frees raises it again. Each request adds one to what the watcher `owes`, which
 * passing time pays back at the current spacing; the next request waits until nothing is owed, so a burst
 * (fetching several runs that just ended) is paid for by waiting longer afterwards. With fewer than 2 left it
 * waits until the window frees a slot, and then looks only now and then. An unlimited plan polls at a floor
 * of a few seconds. Browser-free and clock-free: every input is given.
 */

export const HOUR_MS = 3_600_000;
/** The longest the service holds a status request (the contract's `wait` ≤ 25). */
export const LONG_POLL_SECONDS = 25;
/** The closest two requests may be, whatever the plan. */
export const FLOOR_MS = 3_000;
/** With nothing to spare, the watcher looks again no sooner than this. */
export const PROBE_MS = 300_000;
/** Without a Retry-After, a 429 waits this long. */
export const RATE_LIMITED_MS = 60_000;
const BACKOFF_FIRST_MS = 5_000;
const BACKOFF_CAP_MS = 300_000;

export interface PollHistory {
  /** When the watcher last sent a request, answered or not. */
  lastAttemptAt: number | null;
  /** Requests sent ahead of the pace, as of `lastAttemptAt`; time pays one back every spacing. */
  owed: number;
  /** No request before this: a 429's Retry-After or a backoff after failures. */
  notBefore: number;
  /** Requests in a row that got no usable answer. */
  failures: number;
  /** Followed runs missing from the last list of active runs: each is fetched once to learn how it ended. */
  left: string[];
}

export const EMPTY_HISTORY: PollHistory = {
  lastAttemptAt: null,
  owed: 0,
  notBefore: 0,
  failures: 0,
  left: [],
};

/** A followed run: its id and the last version seen. */
export interface FollowedRun {
  id: string;
  version: number;
}

export type PollRequest =
  /** One run: a long-poll (`wait` > 0, `afterVersion`) or a single fetch (`wait` 0). */
  | { kind: 'run'; runId: string; wait: number; afterVersion?: number }
  /**
   * The account's recent runs, newest first: one request covers every followed run, the ones that ended since
   * included (with their final state), unless newer runs pushed one off the page.
   */
  | { kind: 'recent' };

export type PollPlan = { kind: 'idle' } | { kind: 'poll'; at: number; request: PollRequest };

export interface PlanInput {
  now: number;
  /** Runs still followed (not yet seen to end). */
  runs: readonly FollowedRun[];
  quota: QuotaSnapshot | null;
  history: PollHistory;
}

export function planPoll({ now, runs, quota, history }: PlanInput): PollPlan {
  if (runs.length === 0) return { kind: 'idle' };
  const request = chooseRequest(runs, history.left);
  const remaining = remainingOf(quota, now);
  const last = history.lastAttemptAt ?? Number.NEGATIVE_INFINITY;
  const soonest = Math.max(now, history.notBefore, last + FLOOR_MS);
  if (quota && remaining < 2) {
    // Nothing to spare: wait until the window frees a slot, and then only look now and then.
    const freed = quota.observedAt + (quota.resetSeconds ?? 0) * 1000;
    return { kind: 'poll', at: Math.max(soonest, freed, (history.lastAttemptAt ?? 0) + PROBE_MS), request };
  }
  const spacing = spacingFor(remaining);
  // Fetching the runs that left the recent list is the answer the person waits for: those may run ahead of
  // the pace, by one request per followed run at most, while they take no more than half of what remains.
  const fetches = request.kind === 'run' && request.wait === 0 ? history.left.length : 0;
  const mayBorrow =
    fetches > 0 && remaining >= 2 * fetches && owedAt(history, soonest, spacing) <= runs.length;
  const at = mayBorrow ? soonest : Math.max(soonest, last + history.owed * spacing);
  return { kind: 'poll', at, request };
}

/**
 * The history once a request sent at `sentAt` is paid for, at the spacing the quota sets: before sending with
 * the last quota known (so that a worker ended mid-request still spaces the next one), then again, from the
 * history it was sent with, with the quota its answer brought. A request the service did not count (a 429, a
 * failed connection) costs nothing: `requests` 0.
 */
export function paidFor(
  history: PollHistory,
  sentAt: number,
  quota: QuotaSnapshot | null,
  requests = 1,
): PollHistory {
  const owed = owedAt(history, sentAt, spacingFor(remainingOf(quota, sentAt))) + requests;
  return { ...history, lastAttemptAt: sentAt, owed };
}

function owedAt({ lastAttemptAt, owed }: PollHistory, time: number, spacing: number): number {
  return lastAttemptAt === null ? 0 : Math.max(0, owed - (time - lastAttemptAt) / spacing);
}

function chooseRequest(runs: readonly FollowedRun[], left: readonly string[]): PollRequest {
  const gone = runs.find((run) => left.includes(run.id));
  if (gone) return { kind: 'run', runId: gone.id, wait: 0 };
  const [only] = runs;
  if (only && runs.length === 1)
    return { kind: 'run', runId: only.id, wait: LONG_POLL_SECONDS, afterVersion: only.version };
  return { kind: 'recent' };
}

/**
 * Requests left in the hour as the service last said; the whole limit once that was an hour ago (the window
 * has moved past everything it counted), and Infinity on an unlimited or not yet known plan.
 */
export function remainingOf(quota: QuotaSnapshot | null, now: number): number {
  if (!quota || quota.limit === null || quota.remaining === null) return Number.POSITIVE_INFINITY;
  return now - quota.observedAt >= HOUR_MS ? quota.limit : quota.remaining;
}

/** The time between two requests: `remaining / 2` of them spread over the hour, never closer than the floor. */
export function spacingFor(remaining: number): number {
  return Math.max(FLOOR_MS, HOUR_MS / Math.max(1, remaining / 2));
}

/** After a usable answer: failures are forgotten; `left` is what the answer taught about runs that ended. */
export function afterAnswer(history: PollHistory, left = history.left): PollHistory {
  return { ...history, failures: 0, left };
}

/** After a 429: wait its Retry-After (or a minute), once; no request goes out before. */
export function afterRateLimit(
  history: PollHistory,
  now: number,
  retryAfterSeconds: number | null,
): PollHistory {
  const wait = retryAfterSeconds === null ? RATE_LIMITED_MS : retryAfterSeconds * 1000;
  return { ...history, notBefore: now + wait };
}

/** After no usable answer (network, timeout, server error): exponential backoff, 5 s doubling to 5 min. */
export function afterFailure(history: PollHistory, now: number): PollHistory {
  const failures = history.failures + 1;
  const wait = Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * 2 ** (failures - 1));
  return { ...history, failures, notBefore: now + wait };
}
