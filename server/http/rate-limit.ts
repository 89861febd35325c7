import type { MiddlewareHandler } from 'hono';
import { endpoints } from '../../lib/api/endpoints';
import { HOURLY_LIMITS } from '../accounts/plans';
import type { UsageTally } from '../accounts/usage-tally';
import type { Clock } from '../core/clock';
import { quotaRefusals } from '../core/metrics';
import { formatWait } from '../core/wait';
import type { Database } from '../db/driver';
import type { AccountOfKey } from '../store/accounts';
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

/** One counted request of an account: the verdict, or null for a plan without a limit (Enterprise). */
export type HourlyCount = (account: AccountOfKey, nowMs: number) => Promise<WindowVerdict | null>;

/** The refusals this process knows of, one set per database, so that every counter of it shares them. */
const knownRefusals = new WeakMap<Database, KnownRefusals>();

function refusalsOf(db: Database): KnownRefusals {
  let refusals = knownRefusals.get(db);
  if (!refusals) {
    refusals = new KnownRefusals();
    knownRefusals.set(db, refusals);
  }
  return refusals;
}

/**
 * Counts a request against the plan's hourly limit, over the last 60 minutes (the current one included), in the
 * database: shared by every process on it, kept across restarts. Enterprise accounts are never refused: their
 * requests are only tallied for the dashboard's usage, in memory (`tally`), at no statement per request.
 */
export function hourlyCount(db: Database, tally: UsageTally): HourlyCount {
  const refusals = refusalsOf(db);
  const count = async (
    { id, key_id }: AccountOfKey,
    limit: number,
    nowMs: number,
  ): Promise<CountedRequest> => {
    const refusedUntil = refusals.refusedUntil(id, limit, nowMs);
    if (refusedUntil !== null) return { allowed: false, used: limit, oldestLeavesAtMs: refusedUntil };
    const counted = await countRequest(db, id, nowMs, limit, key_id);
    if (!counted.allowed) refusals.remember(id, limit, counted.oldestLeavesAtMs, nowMs);
    return counted;
  };
  return async (account, nowMs) => {
    const limit = HOURLY_LIMITS[account.plan];
    if (limit !== null) return toVerdict(await count(account, limit, nowMs), limit, nowMs);
    tally.count(account.id, account.key_id, nowMs);
    return null;
  };
}

/**
 * The refusal of an account by its hourly limit that this process already knows of, from memory alone (no
 * query): for a door that turns a refused account away before any other work.
 */
export function knownHourlyRefusal(db: Database, account: AccountOfKey, nowMs: number): WindowVerdict | null {
  const limit = HOURLY_LIMITS[account.plan];
  const until = limit === null ? null : refusalsOf(db).refusedUntil(account.id, limit, nowMs);
  return limit === null || until === null
    ? null
    : toVerdict({ allowed: false, used: limit, oldestLeavesAtMs: until }, limit, nowMs);
}

/** The sentence a request over the plan's hourly limit is refused with. */
export function hourlyLimitReached(account: AccountOfKey, verdict: WindowVerdict): string {
  return `The ${account.plan} plan allows ${verdict.limit} requests an hour; the next one is possible in ${formatWait(verdict.resetSeconds)}.`;
}

/** Stopping a session is never counted nor refused: an account over its limit can always end what it runs. */
const STOP_SESSION = endpoints.stopSession;

/** The plan's hourly limit on every request but those of `exceptPath`, which counts its own (/v1/mcp). */
export function accountRateLimit(
  db: Database,
  clock: Clock,
  tally: UsageTally,
  exceptPath?: string,
): MiddlewareHandler<AppEnv> {
  const count = hourlyCount(db, tally);
  return async (c, next) => {
    if (
      c.req.path === exceptPath ||
      (c.req.method === STOP_SESSION.method && c.req.path === STOP_SESSION.path)
    )
      return next();
    const account = c.get('account');
    const verdict = await count(account, clock.now().getTime());
    if (verdict === null) return next();
    const headers = rateLimitHeaders(verdict);
    if (!verdict.allowed) return hourlyRefusal(account, verdict);
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
  };
}

/** The 429 of a request over the plan's hourly limit. */
export function hourlyRefusal(account: AccountOfKey, verdict: WindowVerdict): Response {
  quotaRefusals.inc();
  return problemResponse({
    status: 429,
    code: 'rate_limited',
    detail: hourlyLimitReached(account, verdict),
    headers: { ...rateLimitHeaders(verdict), 'Retry-After': String(verdict.resetSeconds) },
  });
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
