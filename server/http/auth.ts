import type { MiddlewareHandler } from 'hono';
import type { KeyCache } from '../accounts/key-cache';
import { fromExtension, type KeyUses } from '../accounts/key-uses';
import { hashApiKey } from '../core/api-keys';
import type { Clock } from '../core/clock';
import { formatWait } from '../core/wait';
import type { Queryable } from '../db/driver';
import { type AccountOfKey, findAccountByKey } from '../store/accounts';
import { limitedClient } from './client-address';
import type { AppEnv } from './env';
import { problemResponse } from './problem';
import { SlidingWindowLimiter } from './sliding-window';

/** Failed authentications allowed per client address and minute, so keys cannot be guessed at speed. */
export const AUTH_FAILURES_PER_MINUTE = 60;

/**
 * Requires `Authorization: Bearer <key>` of a live key and puts its account on the context. A missing,
 * malformed, unknown, revoked or expired key is 401 (the dashboard's sign-in cookie is no key); past
 * AUTH_FAILURES_PER_MINUTE failures from one address, 429.
 */
export function authenticate(
  db: Queryable,
  clock: Clock,
  keyCache: KeyCache,
  keyUses: KeyUses,
): MiddlewareHandler<AppEnv> {
  const failures = new SlidingWindowLimiter(60_000);
  return async (c, next) => {
    const outcome = await identify(db, keyCache, c.req.header('authorization'), clock.now());
    if ('account' in outcome) {
      c.set('account', outcome.account);
      keyUses.seen(outcome.account.key_id, clock.now(), fromExtension(c.req.header('origin')));
      return next();
    }
    const verdict = failures.hit(limitedClient(c), AUTH_FAILURES_PER_MINUTE, clock.now().getTime());
    if (!verdict.allowed) {
      return problemResponse({
        status: 429,
        code: 'rate_limited',
        detail: `Too many requests without a valid key from this address; try again in ${formatWait(verdict.resetSeconds)}.`,
        headers: { 'Retry-After': String(verdict.resetSeconds) },
      });
    }
    return problemResponse({
      status: 401,
      code: 'unauthorized',
      detail: outcome.detail,
      headers: { 'WWW-Authenticate': outcome.challenge },
    });
  };
}

type Identity = { account: AccountOfKey } | { detail: string; challenge: string };

async function identify(
  db: Queryable,
  keyCache: KeyCache,
  header: string | undefined,
  now: Date,
): Promise<Identity> {
  const realm = 'Bearer realm="profile-pilot"';
  if (!header) {
    return { detail: 'Send your API key in the header Authorization: Bearer <key>.', challenge: realm };
  }
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  const invalid = `${realm}, error="invalid_token"`;
  if (!match?.[1]) {
    return { detail: 'The Authorization header must be "Bearer <key>".', challenge: invalid };
  }
  const key = match[1];
  const lookup = await keyCache.lookUp(hashApiKey(key), now, () => findAccountByKey(db, key, now));
  if ('account' in lookup) return lookup;
  return { detail: KEY_FAILURES[lookup.failure], challenge: invalid };
}

const KEY_FAILURES = {
  unknown: 'This API key is not valid: check it, or create a new one in the dashboard.',
  revoked: 'This API key has been revoked; create a new one in the dashboard.',
  expired: 'This API key has expired; create a new one in the dashboard.',
};
