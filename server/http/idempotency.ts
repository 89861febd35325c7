import { createHash } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { Clock } from '../core/clock';
import type { Job } from '../core/lifecycle';
import type { Database, Queryable } from '../db/driver';
import {
  claimIdempotencyKey,
  expireIdempotencyRecords,
  releaseIdempotencyKey,
  type StoredAnswer,
  storeIdempotentAnswer,
} from '../store/idempotency';
import type { AppEnv, IdempotencyScope } from './env';
import { ProblemError, validationProblem } from './problem';
import { readRawBody } from './validate';

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const KEY_SHAPE = /^[\x21-\x7e]{1,255}$/;
/** Headers of a stored answer that are replayed; the rest (rate limits, CORS) belong to the new request. */
const REPLAYED_HEADERS = ['content-type', 'location'];

/** A JSON answer that can be stored for replay and then sent. */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * Idempotency-Key, per account, in front of each endpoint the table declares idempotent (route.ts puts it
 * there): the first request claims the key; a 2xx answer is stored for 24 h and replayed
 * (`Idempotent-Replayed: true`) to a retry with the same body; another body is 422 `idempotency_key_reused`; a
 * retry while the first is still running is 409 `idempotency_in_flight`. Error answers release the key, so a
 * corrected retry may use it again.
 *
 * Routes whose writes happen in one transaction store their answer in that transaction (`recordAnswer`, which
 * route.ts hands them as `keep`), so that a crash cannot leave the writes without their stored answer. For
 * other routes this middleware stores the answer after the handler returns.
 */
export function idempotency(db: Database, clock: Clock): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) return next();
    if (!KEY_SHAPE.test(key)) {
      throw validationProblem(
        [{ path: 'Idempotency-Key', message: 'must be 1–255 visible ASCII characters' }],
        'Invalid header: Idempotency-Key must be 1–255 visible ASCII characters (a UUID is a good choice).',
      );
    }
    const accountId = c.get('account').id;
    const fingerprint = createHash('sha256')
      .update(`${c.req.method} ${c.req.path}\n`)
      .update(await readRawBody(c))
      .digest('hex');
    const replay = await claim(db, clock, accountId, key, fingerprint);
    if (replay) return replay;

    const scope: IdempotencyScope = { accountId, key, recorded: false };
    c.set('idempotency', scope);
    await next();
    const succeeded = c.res.status >= 200 && c.res.status < 300;
    if (!succeeded) {
      // Also when the route recorded an answer in a transaction that then rolled back.
      await releaseIdempotencyKey(db, accountId, key);
    } else if (!scope.recorded) {
      await store(db, scope, {
        status: c.res.status,
        body: await c.res.clone().text(),
        headers: pickHeaders(c.res.headers),
      });
    }
  };
}

/** Stores `answer` for the current Idempotency-Key (if any) within the route's transaction, and returns it. */
export async function recordAnswer(c: Context<AppEnv>, tx: Queryable, answer: Answer): Promise<Answer> {
  const scope = c.get('idempotency');
  if (scope) {
    const headers = { 'content-type': 'application/json', ...lowerCaseKeys(answer.headers ?? {}) };
    await store(tx, scope, { status: answer.status, body: JSON.stringify(answer.body), headers });
    scope.recorded = true;
  }
  return answer;
}

export function sendAnswer(c: Context<AppEnv>, answer: Answer): Response {
  return c.json(answer.body, answer.status as 200, answer.headers);
}

/** Deletes answers older than 24 h and claims left by a process that died mid-request. */
export function maintainIdempotencyRecords(db: Database, clock: Clock): Job {
  const expire = (inFlightToo = false) =>
    expireIdempotencyRecords(db, new Date(clock.now().getTime() - IDEMPOTENCY_TTL_MS), inFlightToo);
  return {
    name: 'idempotency records',
    start: () => expire(true),
    every: { ms: 3600 * 1000, run: () => void expire().catch(() => {}) },
  };
}

/** Claims the key for this request (null), or answers from the earlier request that holds it. */
async function claim(
  db: Queryable,
  clock: Clock,
  accountId: string,
  key: string,
  fingerprint: string,
): Promise<Response | null> {
  const now = clock.now();
  const expiredBefore = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
  for (;;) {
    const earlier = await claimIdempotencyKey(db, { accountId, key, fingerprint, now, expiredBefore });
    if (earlier.claimed) return null;
    // Released between the two statements: claim it again.
    if ('released' in earlier) continue;
    if (earlier.fingerprint !== fingerprint) {
      throw new ProblemError({
        status: 422,
        code: 'idempotency_key_reused',
        detail:
          'This Idempotency-Key was already used with another request in the last 24 hours; send a new key for a new request.',
      });
    }
    if (earlier.state === 'in_flight') {
      throw new ProblemError({
        status: 409,
        code: 'idempotency_in_flight',
        detail: 'The first request with this Idempotency-Key is still being processed; retry in a moment.',
        headers: { 'Retry-After': '1' },
      });
    }
    return new Response(earlier.answer.body, {
      status: earlier.answer.status,
      headers: { ...earlier.answer.headers, 'Idempotent-Replayed': 'true' },
    });
  }
}

function store(db: Queryable, scope: IdempotencyScope, answer: StoredAnswer): Promise<void> {
  return storeIdempotentAnswer(db, scope.accountId, scope.key, answer);
}

function pickHeaders(headers: Headers): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of REPLAYED_HEADERS) {
    const value = headers.get(name);
    if (value !== null) picked[name] = value;
  }
  return picked;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .map(([name, value]) => [name.toLowerCase(), value] as const)
      .filter(([name]) => REPLAYED_HEADERS.includes(name)),
  );
}
