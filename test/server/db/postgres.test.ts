import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { ApiError } from '../../../lib/api/errors';
import { loadMigrations } from '../../../server/db/migrate';
import { openPostgres } from '../../../server/db/postgres';
import { openEventStream } from '../../support/event-stream';
import {
  createDataDir,
  JSON_HEADERS,
  requester,
  type ServiceHandle,
  startService,
} from '../../support/harness';
import { type PostgresServer, postgresForTests, startPostgres } from '../../support/postgres-server';

/* The same service on a real PostgreSQL server (DATABASE_URL) instead of the embedded PGlite. */

const bin = postgresForTests();
let postgres: PostgresServer;
let dataDir: string;
let service: ServiceHandle;
let key: string;
let client: ApiClient;

describe.skipIf(!bin)('on PostgreSQL', () => {
  beforeAll(async () => {
    postgres = await startPostgres(bin as string);
    dataDir = await createDataDir();
    service = await startService({ env: { DATABASE_URL: postgres.url }, dataDir });
    key = await service.createKey('enterprise', 'pg');
    client = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  });
  afterAll(async () => {
    await service?.stop();
    await postgres?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('serves profiles and proxies with the same answers', async () => {
    const proxy = await client.createProxy({
      name: 'pg proxy',
      scheme: 'socks5',
      host: 'h.example',
      port: 1080,
      password: 'pw',
    });
    expect(proxy).toMatchObject({ has_password: true, url: 'socks5://h.example:1080' });
    const profile = await client.createProfile({
      name: 'On Postgres',
      proxy_id: proxy.id,
      tags: ['pg'],
      fingerprint: { screen: { width: 1024, height: 768 } },
    });
    expect(profile).toMatchObject({ proxy: 'socks5://h.example:1080', tags: ['pg'], status: 'idle' });
    for (const name of ['b', 'c']) await client.createProfile({ name, proxy: 'http://u:p@q.example:8080' });
    const page = await client.listProfiles({ limit: 2 });
    expect(page.data.map((item) => item.name)).toEqual(['c', 'b']);
    const rest = await client.listProfiles({ limit: 2, cursor: page.next_cursor ?? '' });
    expect(rest.data.map((item) => item.name)).toEqual(['On Postgres']);
    expect((await client.listProfiles({ q: 'POSTGRES' })).data).toHaveLength(1);

    const inUse = await client.deleteProxy(proxy.id).catch((error: unknown) => error);
    expect(inUse).toBeInstanceOf(ApiError);
    expect((inUse as ApiError).code).toBe('proxy_in_use');
    expect(
      await client.updateProxy(proxy.id, {
        name: 'cleared',
        scheme: 'http',
        host: 'h',
        port: 1,
        password: null,
      }),
    ).toMatchObject({ has_password: false });
    await client.deleteProfile(profile.id);
    await client.deleteProxy(proxy.id);
  });

  it('creates exactly one resource when one Idempotency-Key races itself on several connections', async () => {
    const request = requester(service.baseUrl, key);
    const idempotencyKey = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 16 }, () =>
        request('POST', '/v1/proxies', {
          headers: { ...JSON_HEADERS, 'Idempotency-Key': idempotencyKey },
          body: JSON.stringify({ name: 'race', scheme: 'http', host: 'h', port: 2 }),
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect(
      responses.filter((response) => response.status === 201 && !response.headers.get('idempotent-replayed')),
    ).toHaveLength(1);
    expect((await client.listProxies()).data.filter((proxy) => proxy.name === 'race')).toHaveLength(1);
  });

  it('refuses a revoked key on every process of the same database, though each had it cached', async () => {
    const second = await startService({ env: { DATABASE_URL: postgres.url } });
    try {
      const doomed = await service.createKey('free', 'doomed');
      const processes = [service.baseUrl, second.baseUrl];
      for (const baseUrl of processes) {
        expect((await requester(baseUrl, doomed)('GET', '/v1/account')).status).toBe(200);
      }
      const revoked = await second.cli(['keys', 'revoke', doomed.slice(0, 12)]);
      expect(revoked.code).toBe(0);
      // Each process hears of it by NOTIFY when the revocation commits, within milliseconds.
      for (const baseUrl of processes) {
        const deadline = Date.now() + 10_000;
        let status = 0;
        while (status !== 401 && Date.now() < deadline) {
          status = (await requester(baseUrl, doomed)('GET', '/v1/account')).status;
        }
        expect(status).toBe(401);
      }
      expect((await requester(service.baseUrl, key)('GET', '/v1/account')).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('streams the account’s events in order, resumes with Last-Event-ID, and queues webhook deliveries', async () => {
    const call = requester(service.baseUrl, key);
    const hook = await call('POST', '/v1/webhooks', {
      body: JSON.stringify({ url: 'http://127.0.0.1:9/unheard', event_types: ['profile.deleted'] }),
      headers: JSON_HEADERS,
    });
    const webhook = (await hook.json()) as { id: string };
    const events = await openEventStream(service.baseUrl, key);
    const created = await client.createProfile({ name: 'streamed on pg' });
    await client.deleteProfile(created.id);
    const first = await events.nextEvent();
    expect(first).toMatchObject({ type: 'profile.created', data: { id: created.id } });
    events.close();
    const resumed = await openEventStream(service.baseUrl, key, { 'Last-Event-ID': first.id });
    expect(await resumed.nextEvent()).toMatchObject({ type: 'profile.deleted', data: { id: created.id } });
    resumed.close();
    const deliveries = (await (await call('GET', `/v1/webhooks/${webhook.id}/deliveries`)).json()) as {
      data: { event_type: string }[];
    };
    expect(deliveries.data.map((delivery) => delivery.event_type)).toEqual(['profile.deleted']);
  });

  it('sends a transaction the statements asked of it at once one after another, each with its own answer', async () => {
    const database = await openPostgres(postgres.url);
    const inFlight = new Map<object, number>();
    let most = 0;
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const sent = (query as (...a: unknown[]) => unknown).apply(this, args);
      if (!(sent instanceof Promise)) return sent;
      inFlight.set(this, (inFlight.get(this) ?? 0) + 1);
      most = Math.max(most, inFlight.get(this) ?? 0);
      return sent.finally(() => inFlight.set(this, (inFlight.get(this) ?? 1) - 1));
    } as typeof query);
    try {
      const answers = await database.transaction((tx) =>
        Promise.all([
          tx.query<{ n: number }>('select 1 as n from pg_sleep(0.05)'),
          tx.query<{ n: number }>('select 2 as n'),
          tx.query<{ n: number }>('select $1::int as n', [3]),
        ]),
      );
      expect(answers).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3 }]]);
      // pg queues statements sent to one connection at once only as a deprecated use (refused from pg@9).
      expect(most).toBe(1);
    } finally {
      spy.mockRestore();
      await database.close();
    }
  });

  it('keeps data and migrations across a restart, and takes keys while running', async () => {
    const migrated = (logs: string[]) =>
      logs.map((line) => JSON.parse(line)).filter((record) => record.msg === 'database migrated');
    // Every migration file (db.test.ts checks the list itself).
    const versions = (await loadMigrations()).map((migration) => migration.version);
    expect(migrated(service.logs)).toMatchObject([{ versions, kind: 'postgres' }]);
    await service.stop();
    service = await startService({ env: { DATABASE_URL: postgres.url }, dataDir });
    expect(migrated(service.logs)).toEqual([]);
    const server = new pg.Client({ connectionString: postgres.url });
    await server.connect();
    const { rows } = await server
      .query('select version from schema_migrations order by version')
      .finally(() => server.end());
    expect(rows).toEqual(versions.map((version) => ({ version })));
    const again = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
    expect((await again.getAccount()).name).toBe('pg');
    const fresh = await service.createKey('free');
    expect((await requester(service.baseUrl, fresh)('GET', '/v1/account')).status).toBe(200);
  });
});
