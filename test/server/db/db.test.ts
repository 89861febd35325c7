import { spawnSync } from 'node:child_process';
import { existsSync, fsyncSync, readlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scheduleJobs } from '../../../server/boot/jobs';
import { lockFilePath } from '../../../server/core/data-dir';
import { createLifecycle } from '../../../server/core/lifecycle';
import { acquireDataDirLock, currentLockHolder, DataDirBusyError } from '../../../server/core/lock';
import { createLogger } from '../../../server/core/log';
import type { Database } from '../../../server/db/driver';
import { loadMigrations, migrate } from '../../../server/db/migrate';
import { openDatabase } from '../../../server/db/open';
import { openPglite } from '../../../server/db/pglite';
import { keepStatisticsCurrent } from '../../../server/db/statistics';
import { filterConditions } from '../../../server/store/profile-filter';
import { listProfileEntries } from '../../../server/store/profile-page';
import { everything } from '../../../server/store/scope';

import { type PostgresServer, postgresForTests, startPostgres } from '../../support/postgres-server';

const postgresBin = postgresForTests();

/* The driver seam on both databases: the embedded PGlite and, as with DATABASE_URL, a PostgreSQL server. */
const databases: { name: string; open(dataDir: string): Promise<{ db: Database; stop(): Promise<void> }> }[] =
  [
    {
      name: 'PGlite',
      open: async (dataDir) => ({ db: await openDatabase({ dataDir }), stop: async () => {} }),
    },
    ...(postgresBin
      ? [
          {
            name: 'PostgreSQL',
            async open(dataDir: string) {
              const server: PostgresServer = await startPostgres(postgresBin);
              return { db: await openDatabase({ dataDir, databaseUrl: server.url }), stop: server.stop };
            },
          },
        ]
      : []),
  ];

describe.each(databases)('on $name', ({ name, open }) => {
  let dataDir: string;
  let db: Database;
  let stop: () => Promise<void>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pp-db-'));
    ({ db, stop } = await open(dataDir));
  });
  afterAll(async () => {
    await db?.close();
    await stop?.();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is the driver asked for', () => {
    expect(db.kind).toBe(name === 'PGlite' ? 'pglite' : 'postgres');
  });

  it('applies every migration file once, in order, and records it', async () => {
    const files = await loadMigrations();
    expect(files.map((migration) => migration.version)).toEqual([
      1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23, 24, 26, 28, 29, 30, 33, 37,
    ]);
    expect(await migrate(db)).toEqual([
      1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 23, 24, 26, 28, 29, 30, 33, 37,
    ]);
    expect(await migrate(db)).toEqual([]);
    const recorded = await db.query<{ version: number; name: string }>(
      'select version, name from schema_migrations',
    );
    expect(recorded).toEqual([
      { version: 1, name: 'initial' },
      { version: 2, name: 'isolation' },
      { version: 3, name: 'hot_path' },
      { version: 4, name: 'dashboard' },
      { version: 6, name: 'events' },
      { version: 7, name: 'artifact_files' },
      { version: 8, name: 'request_counts' },
      { version: 9, name: 'profile_state' },
      { version: 10, name: 'cluster' },
      { version: 11, name: 'runs_by_profile' },
      { version: 12, name: 'sign_in_attempts' },
      { version: 13, name: 'profile_identity' },
      { version: 14, name: 'profile_last_used' },
      { version: 15, name: 'sessions_by_profile' },
      { version: 16, name: 'proxy_socks5h' },
      { version: 17, name: 'stop_reasons' },
      { version: 18, name: 'help_requests' },
      { version: 19, name: 'batches' },
      { version: 20, name: 'proxy_checks_sign_in_links' },
      { version: 21, name: 'room_queue' },
      { version: 23, name: 'workspaces' },
      { version: 24, name: 'leases_versions_audit' },
      { version: 26, name: 'help_requests_withdrawn' },
      { version: 28, name: 'proxy_check_jobs' },
      { version: 29, name: 'scoped_events' },
      { version: 30, name: 'key_extension_use' },
      { version: 33, name: 'search_column' },
      { version: 37, name: 'search_trigram_statistics' },
    ]);
    const tables = await db.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    expect(tables.map((table) => table.table_name)).toEqual([
      'accounts',
      'api_keys',
      'audit_records',
      'automation_artifacts',
      'automation_batches',
      'automation_runs',
      'cluster_secrets',
      'dashboard_sessions',
      'events',
      'help_requests',
      'idempotency_records',
      'invitations',
      'key_request_counts',
      'members',
      'nodes',
      'profile_leases',
      'profile_states',
      'profiles',
      'proxies',
      'proxy_check_jobs',
      'request_counts',
      'room_turns',
      'room_waits',
      'schema_migrations',
      'sessions',
      'sign_in_attempts',
      'sign_in_links',
      'webhook_deliveries',
      'webhooks',
    ]);
  });

  it('rolls a failing migration back whole', async () => {
    const broken = [
      { version: 99, name: 'broken', sql: 'create table half_done (id int); select * from missing_table;' },
    ];
    await expect(migrate(db, broken)).rejects.toThrow(/missing_table/);
    expect(await db.query(`select 1 from information_schema.tables where table_name = 'half_done'`)).toEqual(
      [],
    );
    expect(await db.query('select 1 from schema_migrations where version = 99')).toEqual([]);
  });

  it('allows one live session per profile', async () => {
    await db.query(
      `insert into accounts (id, name, plan, created_at) values ('acc_db', 'db', 'free', now())`,
    );
    const insert = (id: string, status: string) =>
      db.query(
        `insert into sessions (id, account_id, profile_id, status, headless, started_at, updated_at)
         values ($1, 'acc_db', 'prf_db', $2, true, now(), now())`,
        [id, status],
      );
    await insert('ses_1', 'stopped');
    await insert('ses_2', 'running');
    await expect(insert('ses_3', 'starting')).rejects.toThrow(/sessions_one_live_per_profile/);
  });

  it('reads a bigint as a number and passes parameters through', async () => {
    expect(await db.query('select $1::bigint + 1 as n, $2::text as t', [41, 'x'])).toEqual([
      { n: 42, t: 'x' },
    ]);
  });

  it('runs one statement many times with each call’s own parameters of every type', async () => {
    const sql = `select $1::int as n, $2::text as t, $3::jsonb as j, $4::text[] as a, $5::timestamptz as d`;
    for (const n of [1, 2, 3]) {
      const when = new Date(Date.UTC(2026, 0, n));
      expect(await db.query(sql, [n, `t${n}`, JSON.stringify({ n }), [`a${n}`, null], when])).toEqual([
        { n, t: `t${n}`, j: { n }, a: [`a${n}`, null], d: when },
      ]);
    }
    expect(await db.query(sql, [null, null, null, null, null])).toEqual([
      { n: null, t: null, j: null, a: null, d: null },
    ]);
    await expect(db.query('select 1 / $1::int as q', [0])).rejects.toThrow(/division by zero/);
    expect(await db.query('select 1 / $1::int as q', [1])).toEqual([{ q: 1 }]);
  });

  it('delivers each NOTIFY on a channel to its listener until it stops', async () => {
    const payloads: string[] = [];
    let heard: () => void = () => {};
    const stop = await db.listen('pp_test', {
      onNotify: (payload) => {
        payloads.push(payload);
        heard();
      },
    });
    const next = () => new Promise<void>((resolve) => (heard = resolve));
    let arrived = next();
    await db.query(`select pg_notify('pp_test', $1)`, ['first']);
    await arrived;
    arrived = next();
    await db.transaction((tx) => tx.query(`select pg_notify('pp_test', 'second')`));
    await arrived;
    await stop();
    expect(payloads).toEqual(['first', 'second']);
  });

  it('finds a profile by a distinctive q= (here in its notes) through the trigram index, not by reading the account’s every row', async () => {
    await migrate(db);
    await db.query(
      `insert into accounts (id, name, plan, created_at) values ('acc_search', 'search', 'free', now())`,
    );
    await db.query(
      `insert into profiles (id, account_id, name, tags, notes, created_at, updated_at)
       select 'prf_s' || i, 'acc_search', md5(i::text), '["batch"]', md5('notes' || i), now(), now()
         from generate_series(1, 5000) i`,
    );
    await db.exec('vacuum analyze profiles');
    const [{ notes: wanted } = { notes: '' }] = await db.query<{ notes: string }>(
      `select notes from profiles where id = 'prf_s42'`,
    );
    const params: unknown[] = ['acc_search'];
    const where = filterConditions({ q: wanted.slice(3, 13).toUpperCase() }, params);
    const [plan] = await db.query<{ 'QUERY PLAN': unknown }>(
      `explain (format json) select p.id from profiles p
        where p.account_id = $1 and ${where.join(' and ')} order by p.seq desc limit 51`,
      params,
    );
    expect(JSON.stringify(plan?.['QUERY PLAN'])).toContain('"Index Name":"profiles_search"');
    // A list's search keeps one plan for any pattern: once made for each pattern given, it was made again at every
    // run from a few thousand profiles on. After five custom plans the statement settles on its generic one.
    const plans = await db.transaction(async (tx) => {
      for (let run = 0; run < 10; run++)
        await listProfileEntries(tx, everything('acc_search'), {
          limit: 50,
          after: null,
          q: wanted.slice(3, 13),
        });
      return tx.query<{ custom: number; generic: number }>(
        `select custom_plans::int as custom, generic_plans::int as generic from pg_prepared_statements
          where statement like 'select coalesce(json_agg(%search_text like%'`,
      );
    });
    expect(plans).toEqual([{ custom: 5, generic: 5 }]);
  });

  it.skipIf(name === 'PGlite')('keeps serving when the server ends its idle connections', async () => {
    await Promise.all([db.query('select pg_sleep(0.05)'), db.query('select pg_sleep(0.05)')]);
    const [ended] = await db.query<{ count: number }>(
      `select count(pg_terminate_backend(pid))::int as count from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid()`,
    );
    expect(ended?.count).toBeGreaterThan(0);
    expect(await db.query('select 1 as one')).toEqual([{ one: 1 }]);
  });

  it('commits a transaction that resolves, and rolls back one that throws', async () => {
    await db.exec('create table ledger (n int not null); insert into ledger values (0);');
    expect(await db.transaction(async (tx) => tx.query('update ledger set n = 1 returning n'))).toEqual([
      { n: 1 },
    ]);
    await expect(
      db.transaction(async (tx) => {
        await tx.query('update ledger set n = 999');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await db.query('select n from ledger')).toEqual([{ n: 1 }]);
  });
});

describe('PGlite durability', () => {
  it('syncs the WAL to disk before a commit is answered, without holding up the thread meanwhile', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pp-db-'));
    const synced: string[] = [];
    let syncing = Promise.resolve();
    let release = () => {};
    const db = await openPglite(path.join(dataDir, 'pg'), {
      fsync: async (fd) => {
        synced.push(readlinkSync(`/proc/self/fd/${fd}`));
        await syncing;
        fsyncSync(fd);
      },
    });
    try {
      await db.exec('create table kept (n int)');
      synced.length = 0;
      syncing = new Promise((resolve) => {
        release = resolve;
      });
      let answered = false;
      const insert = db.query('insert into kept values (1)').then(() => {
        answered = true;
      });
      await vi.waitUntil(() => synced.length > 0);
      // The WAL sync is still under way: the thread serves other work, and the commit is not answered yet.
      expect(await db.query('select count(*)::int as n from kept')).toEqual([{ n: 1 }]);
      expect(answered).toBe(false);
      release();
      await insert;
      expect(synced.some((file) => file.includes(`${path.sep}pg_wal${path.sep}`))).toBe(true);
    } finally {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('planner statistics on PGlite (no autovacuum)', () => {
  it('vacuums and analyzes a table once enough of it changed, as autovacuum would', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pp-db-'));
    const db = await openDatabase({ dataDir });
    const lifecycle = createLifecycle(createLogger({ level: 'error' }));
    const statistics = keepStatisticsCurrent(db, createLogger({ level: 'error' }), 50);
    if (statistics) scheduleJobs([statistics], lifecycle);
    // reltuples is the planner's count of a table's rows: only VACUUM and ANALYZE set it.
    const plannedRows = async () =>
      (
        await db.query<{ rows: number }>(
          `select reltuples::int as rows from pg_class where relname = 'profiles'`,
        )
      )[0]?.rows;
    try {
      await migrate(db);
      await lifecycle.runStart();
      expect(await plannedRows()).toBe(0);
      await db.query(
        `insert into accounts (id, name, plan, created_at) values ('acc_st', 'st', 'free', now())`,
      );
      await db.query(
        `insert into profiles (id, account_id, name, created_at, updated_at)
         select 'prf_st' || i, 'acc_st', 'p' || i, now(), now() from generate_series(1, 200) i`,
      );
      while ((await plannedRows()) !== 200) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      await lifecycle.runShutdown();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('transactions on PGlite (one connection)', () => {
  let dataDir: string;
  let db: Database;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pp-db-'));
    db = await openDatabase({ dataDir });
  });
  afterAll(async () => {
    await db?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('never interleave, however many run at once', async () => {
    await db.exec('create table counter (n int not null); insert into counter values (0);');
    await Promise.all(
      Array.from({ length: 20 }, () =>
        db.transaction(async (tx) => {
          const [row] = await tx.query<{ n: number }>('select n from counter');
          await new Promise((resolve) => setTimeout(resolve, 1));
          await tx.query('update counter set n = $1', [(row?.n ?? 0) + 1]);
        }),
      ),
    );
    expect(await db.query('select n from counter')).toEqual([{ n: 20 }]);
  });
});

describe('the data dir lock', () => {
  it('refuses a second holder while the first lives, and frees on release', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pp-lock-'));
    try {
      const lock = acquireDataDirLock(dir, 'service');
      expect(currentLockHolder(dir)).toMatchObject({ pid: process.pid, role: 'service' });
      expect(() => acquireDataDirLock(dir, 'cli')).toThrow(DataDirBusyError);
      lock.release();
      expect(existsSync(lockFilePath(dir))).toBe(false);
      acquireDataDirLock(dir, 'cli').release();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('takes over the lock of a process that is gone', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pp-lock-'));
    try {
      const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
      const deadPid = Number(gone.stdout.toString());
      writeFileSync(lockFilePath(dir), JSON.stringify({ pid: deadPid, role: 'service', started_at: '' }));
      expect(currentLockHolder(dir)).toBeNull();
      const lock = acquireDataDirLock(dir, 'service');
      expect(currentLockHolder(dir)?.pid).toBe(process.pid);
      lock.release();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!postgresBin)('several processes starting at once on a fresh PostgreSQL', () => {
  it('migrate it once between them, none failing', async () => {
    const server = await startPostgres(postgresBin as string);
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pp-db-'));
    const connections = await Promise.all(
      Array.from({ length: 6 }, () => openDatabase({ dataDir, databaseUrl: server.url })),
    );
    try {
      const applied = await Promise.all(connections.map((db) => migrate(db)));
      const versions = (await loadMigrations()).map((migration) => migration.version);
      expect(applied.flat().sort((a, b) => a - b)).toEqual(versions);
    } finally {
      await Promise.all(connections.map((db) => db.close()));
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
