import type { MiddlewareHandler } from 'hono';
import { HOURLY_LIMITS } from '../accounts/plans';
import type { Clock } from '../core/clock';
import { formatWait } from '../core/wait';
import type { Database } from '../db/driver';
import { type CountedRequest, countRequest } from '../store/request-counts';
import type { AppEnv } from './env';
import { KnownRefusals } from './known-refusals';
import { problemResponse } from './problem';
import type { WindowVerdict } from './sliding-window';

export const RATE_LIMIT_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
] as const;

/**
 * The plan's hourly limit per account, over the last 60 minutes (the current one included), counted in the
 * database: shared by every process on it, kept across restarts. Enterprise accounts are not counted at all.
 */
export function accountRateLimit(db: Database, clock: Clock): MiddlewareHandler<AppEnv> {
  const refusals = new KnownRefusals();
  const count = async (accountId: string, limit: number, nowMs: number): Promise<CountedRequest> => {
    const refusedUntil = refusals.refusedUntil(accountId, limit, nowMs);
    if (refusedUntil !== null) return { allowed: false, used: limit, oldestLeavesAtMs: refusedUntil };
    const counted = await countRequest(db, accountId, nowMs, limit);
    if (!counted.allowed) refusals.remember(accountId, limit, counted.oldestLeavesAtMs, nowMs);
    return counted;
  };
  return async (c, next) => {
    const account = c.get('account');
    const limit = HOURLY_LIMITS[account.plan];
    if (limit === null) return next();
    const nowMs = clock.now().getTime();
    const verdict = toVerdict(await count(account.id, limit, nowMs), limit, nowMs);
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

function toVerdict(counted: CountedRequest, limit: number, nowMs: number): WindowVerdict {
  return {
    allowed: counted.allowed,
    limit,
    remaining: Math.max(0, limit - counted.used),
    resetSeconds: Math.max(1, Math.ceil((counted.oldestLeavesAtMs - nowMs) / 1000)),
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
