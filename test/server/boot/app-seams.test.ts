import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProxyInput } from '../../../lib/api/inputs/proxies';
import { createApp } from '../../../server/boot/app';
import { backgroundJobs, scheduleJobs } from '../../../server/boot/jobs';
import { wireService } from '../../../server/boot/wiring';
import { loadConfig } from '../../../server/core/config';
import { createLifecycle } from '../../../server/core/lifecycle';
import { createLogger } from '../../../server/core/log';
import type { Database } from '../../../server/db/driver';
import type { AppDeps } from '../../../server/http/deps';
import type { AppEnv } from '../../../server/http/env';
import { recordAnswer, sendAnswer } from '../../../server/http/idempotency';
import { readJsonBody } from '../../../server/http/validate';
import { routes } from '../../../server/routes/index';
import { createAccountWithKey } from '../../../server/store/accounts';
import { insertProxy } from '../../../server/store/proxies';
import type { StopReason } from '../../../server/store/sessions';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

/*
 * The app in-process on a real PGlite database, with route groups and a sessions port made for the test:
 * the seams the session and automation layers plug into.
 */

let scratch: ScratchDatabase;
let dataDir: string;
let db: Database;
let app: Hono<AppEnv>;
let key: string;
let accountId: string;
const now = { ms: Date.parse('2026-01-01T00:00:00Z') };
const logLines: string[] = [];
const stopCalls: [string, string, StopReason][] = [];
let stopSessions = true;
const slowCreate = { started: deferred(), release: deferred() };

function deferred() {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

/** The real service, with its sessions' stopForProfile watched (and, for one test, refusing to act). */
function watchSessions(deps: AppDeps): AppDeps {
  return {
    ...deps,
    sessions: {
      ...deps.sessions,
      async stopForProfile(account, profile, reason) {
        stopCalls.push([account, profile, reason]);
        if (stopSessions) await deps.sessions.stopForProfile(account, profile, reason);
      },
    },
  };
}

function testRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.post('/v1/test/slow', async (c) => {
    const body = await readJsonBody(c, ProxyInput);
    slowCreate.started.resolve();
    await slowCreate.release.promise;
    return c.json({ created: body.name }, 201);
  });
  routes.post('/v1/test/rolled-back', async (c) => {
    const body = await readJsonBody(c, ProxyInput);
    const fail = c.req.query('fail') === 'true';
    const answer = await deps.db.transaction(async (tx) => {
      const proxy = await insertProxy(tx, deps.clock, c.get('account').id, body);
      const recorded = await recordAnswer(c, tx, { status: 201, body: proxy });
      if (fail) throw new Error('failed after recording');
      return recorded;
    });
    return sendAnswer(c, answer);
  });
  return routes;
}

beforeAll(async () => {
  scratch = await openScratchDatabase('seams');
  ({ db, dataDir } = scratch);
  const clock = { now: () => new Date(now.ms) };
  const log = createLogger({ write: (line) => logLines.push(line) });
  const lifecycle = createLifecycle(log);
  const config = loadConfig({ DATA_DIR: dataDir });
  const base = { db, config, log, clock, lifecycle };
  const deps = watchSessions(wireService(base));
  app = createApp(deps, routes, testRoutes(deps));
  scheduleJobs(backgroundJobs(deps), lifecycle);
  await lifecycle.runStart();
  const created = await createAccountWithKey(db, clock, { plan: 'enterprise', name: 'seams' });
  key = created.key;
  accountId = created.account_id;
});
afterAll(async () => {
  await scratch?.close();
});

function call(method: string, pathname: string, body?: unknown, headers: Record<string, string> = {}) {
  return app.request(pathname, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

let sessionsInserted = 0;

async function insertSession(profileId: string, status: string): Promise<string> {
  sessionsInserted += 1;
  const id = `ses_test${sessionsInserted}`;
  await db.query(
    `insert into sessions (id, account_id, profile_id, status, headless, started_at, updated_at)
     values ($1, $2, $3, $4, true, now(), now())`,
    [id, accountId, profileId, status],
  );
  return id;
}

describe('profiles and the session layer', () => {
  it('derives status and session_id from a live session', async () => {
    const profile = await (await call('POST', '/v1/profiles', { name: 'Live' })).json();
    const idle = await (await call('POST', '/v1/profiles', { name: 'Idle' })).json();
    await insertSession(idle.id, 'stopped');
    const sessionId = await insertSession(profile.id, 'running');

    expect(await (await call('GET', `/v1/profiles/${profile.id}`)).json()).toMatchObject({
      status: 'running',
      session_id: sessionId,
    });
    const running = await (await call('GET', '/v1/profiles?status=running')).json();
    expect(running.data.map((item: { id: string }) => item.id)).toEqual([profile.id]);
    const idles = await (await call('GET', '/v1/profiles?status=idle')).json();
    expect(idles.data.map((item: { id: string }) => item.id)).toContain(idle.id);
    expect(idles.data.map((item: { id: string }) => item.id)).not.toContain(profile.id);
  });

  it('refuses to delete a running profile without force (409 profile_running with session_id)', async () => {
    const profile = await (await call('POST', '/v1/profiles', { name: 'Busy' })).json();
    const sessionId = await insertSession(profile.id, 'starting');
    const response = await call('DELETE', `/v1/profiles/${profile.id}`);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ code: 'profile_running', session_id: sessionId });
    expect(stopCalls).toEqual([]);
  });

  it('stops the session through the port with force=true, then deletes; the session outlives the profile', async () => {
    const profile = await (await call('POST', '/v1/profiles', { name: 'Forced' })).json();
    const sessionId = await insertSession(profile.id, 'running');
    const response = await call('DELETE', `/v1/profiles/${profile.id}?force=true`);
    expect(response.status).toBe(204);
    expect(stopCalls).toContainEqual([accountId, profile.id, 'profile_deleted']);
    expect((await call('GET', `/v1/profiles/${profile.id}`)).status).toBe(404);
    const [session] = await db.query('select status, stop_reason from sessions where id = $1', [sessionId]);
    expect(session).toEqual({ status: 'stopped', stop_reason: 'profile_deleted' });
  });

  it('still answers 409 when the port could not stop the session', async () => {
    const profile = await (await call('POST', '/v1/profiles', { name: 'Stubborn' })).json();
    await insertSession(profile.id, 'running');
    stopSessions = false;
    try {
      const response = await call('DELETE', `/v1/profiles/${profile.id}?force=true`);
      expect(response.status).toBe(409);
      expect((await call('GET', `/v1/profiles/${profile.id}`)).status).toBe(200);
    } finally {
      stopSessions = true;
    }
  });
});

describe('idempotency for any POST route', () => {
  const proxy = { name: 'Slow', scheme: 'http', host: 'h', port: 1 };

  it('answers 409 while the first request runs, 422 for another body, then replays', async () => {
    const first = call('POST', '/v1/test/slow', proxy, { 'Idempotency-Key': 'slow-1' });
    await slowCreate.started.promise;
    const inFlight = await call('POST', '/v1/test/slow', proxy, { 'Idempotency-Key': 'slow-1' });
    expect(inFlight.status).toBe(409);
    expect(await inFlight.json()).toMatchObject({ code: 'idempotency_in_flight' });
    const otherBody = await call(
      'POST',
      '/v1/test/slow',
      { ...proxy, name: 'Other' },
      { 'Idempotency-Key': 'slow-1' },
    );
    expect(otherBody.status).toBe(422);
    slowCreate.release.resolve();
    expect((await first).status).toBe(201);
    const replayed = await call('POST', '/v1/test/slow', proxy, { 'Idempotency-Key': 'slow-1' });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await replayed.json()).toEqual({ created: 'Slow' });
  });

  it('forgets an answer after 24 hours', async () => {
    const body = { name: 'Daily', scheme: 'http', host: 'h', port: 2 };
    const first = await (
      await call('POST', '/v1/test/rolled-back', body, { 'Idempotency-Key': 'daily' })
    ).json();
    now.ms += 24 * 3600 * 1000 - 1;
    const replayed = await call('POST', '/v1/test/rolled-back', body, { 'Idempotency-Key': 'daily' });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    now.ms += 2;
    const later = await call('POST', '/v1/test/rolled-back', body, { 'Idempotency-Key': 'daily' });
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect((await later.json()).id).not.toBe(first.id);
  });

  it('stores the answer in the route’s transaction: a rollback leaves neither the row nor the answer', async () => {
    const body = { name: 'Atomic', scheme: 'http', host: 'h', port: 3 };
    const failed = await call('POST', '/v1/test/rolled-back?fail=true', body, {
      'Idempotency-Key': 'atomic',
    });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ code: 'internal', status: 500 });
    expect(logLines.some((line) => line.includes('failed after recording'))).toBe(true);
    expect(await db.query(`select 1 from proxies where name = 'Atomic'`)).toEqual([]);
    // The key was released with the failure: the same request now runs anew.
    const retried = await call('POST', '/v1/test/rolled-back', body, { 'Idempotency-Key': 'atomic' });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const [stored] = await db.query<{ state: string; body: string }>(
      `select state, body from idempotency_records where key = 'atomic'`,
    );
    expect(stored?.state).toBe('done');
    expect(JSON.parse(stored?.body ?? '{}')).toEqual(await retried.json());
  });
});

describe('errors', () => {
  it('answers an unexpected error as 500 internal without internals, and logs it', async () => {
    const response = await call('POST', '/v1/test/rolled-back?fail=true', {
      name: 'Boom',
      scheme: 'http',
      host: 'h',
      port: 4,
    });
    const text = await response.text();
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(text).not.toMatch(/failed after recording|at .*\.ts/);
    expect(JSON.parse(text).detail).toMatch(/reference req_/);
  });
});
