import type { MiddlewareHandler } from 'hono';
import { HOURLY_LIMITS } from '../accounts/plans';
import type { Clock } from '../clock';
import type { AppEnv } from './env';
import { problemResponse } from './problem';
import { SlidingWindowLimiter, type WindowVerdict } from './sliding-window';

const HOUR_MS = 3600 * 1000;

export const RATE_LIMIT_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
] as const;

/** Each account's requests over the last hour: what its plan's limit is checked against and the dashboard shows. */
export interface HourlyRequests {
  /** Counts a request unless the account already made `limit` in the hour. */
  hit(accountId: string, limit: number, nowMs: number): WindowVerdict;
  /** The requests counted per minute over the last hour, the oldest minute first (60 numbers). */
  perMinute(accountId: string, nowMs: number): number[];
}

/**
 * Counts live in memory: only the operator can restart the service, and writing every request to the database
 * would halve what it can serve.
 */
export function createHourlyRequests(): HourlyRequests {
  const window = new SlidingWindowLimiter(HOUR_MS);
  return {
    hit: (accountId, limit, nowMs) => window.hit(accountId, limit, nowMs),
    perMinute: (accountId, nowMs) => window.histogram(accountId, nowMs, 60),
  };
}

/** The plan's hourly limit per account over a sliding 3600 s window. */
export function accountRateLimit(clock: Clock, limiter: HourlyRequests): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const account = c.get('account');
    const limit = HOURLY_LIMITS[account.plan];
    if (limit === null) return next();
    const verdict = limiter.hit(account.id, limit, clock.now().getTime());
    const headers = rateLimitHeaders(verdict);
    if (!verdict.allowed) {
      return problemResponse({
        status: 429,
        code: 'rate_limited',
        detail: `The ${account.plan} plan allows ${limit} requests an hour; the next one is possible in ${formatWait(verdict.resetSeconds)}.`,
        headers: { ...headers, 'Retry-After': String(verdict.resetSeconds) },
      });
    }
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

export function rateLimitHeaders(verdict: WindowVerdict): Record<string, string> {
  return {
    'RateLimit-Policy': `"hourly";q=${verdict.limit};w=3600`,
    RateLimit: `"hourly";r=${verdict.remaining};t=${verdict.resetSeconds}`,
    'X-RateLimit-Limit': String(verdict.limit),
    'X-RateLimit-Remaining': String(verdict.remaining),
    'X-RateLimit-Reset': String(verdict.resetSeconds),
  };
}

export function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
