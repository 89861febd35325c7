import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../server/core/clock';
import { ConfigError, loadConfig } from '../../../server/core/config';
import type { Database } from '../../../server/db/driver';
import { loadMigrations, migrate } from '../../../server/db/migrate';
import { openDatabase } from '../../../server/db/open';
import { ensureBootstrapAccount } from '../../../server/store/bootstrap-account';
import { freePort } from '../../support/free-port';
import { createDataDir, runCli, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import { type PostgresServer, postgresForTests, startPostgres } from '../../support/postgres-server';

/* What an operator gets wrong at start, and what many nodes starting at once must not break. */

const BOOTSTRAP_KEY = `pp_live_${'Bootstrap0123456789abcdefghijklm'}`;
const bin = postgresForTests();

describe('settings refused at start, without echoing secrets', () => {
  it('refuses NODE_URL (a cluster) without a shared DATABASE_URL', () => {
    expect(() => loadConfig({ NODE_URL: 'http://10.0.0.5:8787' })).toThrow(
      /NODE_URL makes this process a node of a cluster.*set DATABASE_URL too/,
    );
  });

  it('refuses a BOOTSTRAP_KEY that is not a key of this service, and does not repeat it', () => {
    const error = (() => {
      try {
        loadConfig({ BOOTSTRAP_KEY: 'hunter2-not-a-key' });
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect(error?.message).toBe(
      'BOOTSTRAP_KEY must be a key of this service: pp_live_ and 32 letters or digits',
    );
  });

  it('exits with code 3 and a sentence when the database does not answer, its password not shown', async () => {
    const dataDir = await createDataDir();
    try {
      const url = `postgres://pilot:s3cret-pw@127.0.0.1:${await freePort()}/pilot`;
      const result = await runCli([], { dataDir, env: { DATABASE_URL: url, DATABASE_WAIT: '1' } });
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(
        /^The database at postgres:\/\/127\.0\.0\.1:\d+\/pilot did not answer within 1 s/,
      );
      expect(result.stderr).not.toContain('s3cret-pw');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('BOOTSTRAP_KEY', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startServiceInProcess({ env: { BOOTSTRAP_KEY } });
  });
  afterAll(() => service?.close());

  it('makes an Enterprise account with the key at a first start, keeps it after, and never logs the key', async () => {
    const response = await fetch(`${service.baseUrl}/v1/account`, {
      headers: { Authorization: `Bearer ${BOOTSTRAP_KEY}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ plan: 'enterprise' });
    expect(service.logs.some((line) => line.includes('bootstrap account made'))).toBe(true);
    expect(service.logs.join('\n')).not.toContain(BOOTSTRAP_KEY.slice(12));
    const listed = await service.cli(['keys', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
  });
});

describe.skipIf(!bin)('on PostgreSQL', () => {
  let postgres: PostgresServer;
  let holder: pg.Client;
  beforeAll(async () => {
    postgres = await startPostgres(bin as string);
    holder = new pg.Client({ connectionString: postgres.url });
    await holder.connect();
  });
  afterAll(async () => {
    await holder?.end();
    await postgres?.stop();
  });

  it('migrates once when nodes start together: one waits for the other, saying so', async () => {
    const dataDir = await createDataDir();
    const [first, second] = (await Promise.all(
      [0, 1].map(() => openDatabase({ dataDir, databaseUrl: postgres.url })),
    )) as [Database, Database];
    try {
      // Another node holds the migrations' lock: this one waits, and says so, until it is let go.
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock(7208431)');
      const waits: string[] = [];
      const together = Promise.all(
        [first, second].map((db, n) => migrate(db, undefined, () => waits.push(`${n}`))),
      );
      await expect.poll(() => waits.length).toBe(2);
      await holder.query('commit');
      const [a, b] = await together;
      const versions = (await loadMigrations()).map((migration) => migration.version);
      expect([...(a ?? []), ...(b ?? [])].sort((x, y) => x - y)).toEqual(versions);
      const { rows } = await holder.query('select count(*)::int as n from schema_migrations');
      expect(rows[0].n).toBe(versions.length);

      // Two nodes with one BOOTSTRAP_KEY make one account.
      const made = await Promise.all(
        [first, second].map((db) => ensureBootstrapAccount(db, systemClock, BOOTSTRAP_KEY)),
      );
      expect(made.sort()).toEqual(['kept', 'made']);
    } finally {
      await Promise.all([first.close(), second.close()]);
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('is unready while its database stalls, and ready again once it answers', async () => {
    const service = await startServiceInProcess({ env: { DATABASE_URL: postgres.url } });
    const ready = async () => (await fetch(`${service.baseUrl}/readyz`)).status;
    // Its backends, not the postmaster: runuser, its parent, would stop with it and never go on.
    const postgresProcesses = () =>
      execFileSync('pgrep', ['-P', String(postgres.pid())])
        .toString()
        .trim()
        .split('\n')
        .map(Number);
    try {
      expect(await ready()).toBe(200);
      for (const pid of postgresProcesses()) process.kill(pid, 'SIGSTOP');
      const stalled = await fetch(`${service.baseUrl}/readyz`);
      expect(stalled.status).toBe(503);
      expect(await stalled.json()).toEqual({
        status: 'database_unreachable',
        detail: 'The database did not answer within 1500 ms.',
      });
    } finally {
      for (const pid of postgresProcesses()) process.kill(pid, 'SIGCONT');
    }
    try {
      expect(await ready()).toBe(200);
      expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);
    } finally {
      await service.close();
    }
  });
});
