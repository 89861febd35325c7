/**
 * The cost of the service's common requests against bare `node:http` answering the very same bytes, side by
 * side in one run: the service on PGlite, on PostgreSQL (when installed) and the bare baseline, interleaved,
 * for list, get-by-id, create and `q=` search at each profile count. Prints requests/s, p50/p99 and CPU per
 * request (the service's process and the database's processes) with the ratio to the baseline.
 * Ends with each request's growth: its CPU per request at the largest count against at 1,000 (or the smallest
 * measured), which a request that stays flat keeps near ×1. BEFORE=<another checkout> measures that checkout's service beside this one, on PGlite, in
 * the same rounds against the same baseline: a change's before and after, side by side.
 * Each count is measured with the planner's statistics of that count, as a running service has them: PostgreSQL is
 * analyzed after seeding (its autovacuum would within a minute), and from 1,000 profiles on the bench waits for
 * PGlite's own statistics job (server/db/statistics.ts, every 10 s).
 * Run: npm run bench   Settings: SIZES (100,1000,10000), ROUNDS (3), DURATION_S (3), WARMUP_S (1, 0 for none),
 * CONNECTIONS (10), SCENARIOS (all, or some of `list 50,get by id,search q=,create`), BEFORE, DATABASES (pglite,postgres;
 * postgres when installed).
 * Not a pass/fail test: the figures are for reading, and the machine may be shared.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { PROJECT_ROOT } from '../../server/core/config';
import { type ServiceHandle, startService } from '../support/harness';
import { findPostgresBin, type PostgresServer, startPostgres } from '../support/postgres-server';
import type { RecordedAnswer } from './support/bare-server';
import { type LoadFigures, type LoadRequest, measureLoad, median } from './support/load';
import { type SeedTarget, seed } from './support/seed-profiles';

const sizes = (process.env.SIZES ?? '100,1000,10000').split(',').map(Number);
const rounds = Number(process.env.ROUNDS ?? 3);
const durationS = Number(process.env.DURATION_S ?? 3);
const warmupS = Number(process.env.WARMUP_S ?? 1);
const connections = Number(process.env.CONNECTIONS ?? 10);
const chosenScenarios = process.env.SCENARIOS?.split(',');
const databases = (process.env.DATABASES ?? 'pglite,postgres').split(',');
/** How often the service brings PGlite's planner statistics up to date (server/db/statistics.ts). */
const STATISTICS_CHECK_MS = 10_000;
const NEEDLE = 'Scale 00042';

interface Target {
  name: string;
  origin: string;
  pids: () => number[];
  close(): Promise<void>;
}

interface ServiceTarget extends Target, SeedTarget {
  service: ServiceHandle;
  database?: PostgresServer;
  createKey: string;
}

async function serviceTarget(
  name: string,
  env: Record<string, string>,
  database?: PostgresServer,
  root?: string,
) {
  const service = await startService({ env, ...(root ? { root } : {}) });
  const target: ServiceTarget = {
    name,
    service,
    database,
    origin: service.baseUrl,
    pids: () => (database ? [service.pid, database.pid()] : [service.pid]),
    listKey: await service.createKey('enterprise', 'bench'),
    createKey: await service.createKey('enterprise', 'bench creates'),
    profiles: 0,
    someProfileId: null,
    async close() {
      await service.close();
      await database?.stop();
    },
  };
  return target;
}

function scenarios(target: ServiceTarget): Record<string, LoadRequest> {
  const read = { Authorization: `Bearer ${target.listKey}` };
  return {
    'list 50': { method: 'GET', path: '/v1/profiles?limit=50', headers: read },
    'get by id': { method: 'GET', path: `/v1/profiles/${target.someProfileId}`, headers: read },
    'search q=': { method: 'GET', path: `/v1/profiles?q=${encodeURIComponent(NEEDLE)}`, headers: read },
    create: {
      method: 'POST',
      path: '/v1/profiles',
      headers: { Authorization: `Bearer ${target.createKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Created by the bench', tags: ['bench'] }),
    },
  };
}

const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date', 'content-length']);

async function record(origin: string, request: LoadRequest): Promise<RecordedAnswer> {
  const response = await fetch(`${origin}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const body = await response.text();
  const headers: Record<string, string> = { 'content-length': String(Buffer.byteLength(body)) };
  response.headers.forEach((value, header) => {
    if (!HOP_HEADERS.has(header)) headers[header] = value;
  });
  return { method: request.method, path: request.path, status: response.status, headers, body };
}

async function startBare(answers: RecordedAnswer[]): Promise<Target & { child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('test/bench/support/bare-server.ts')], {
    cwd: PROJECT_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  child.stdin?.end(JSON.stringify(answers));
  const [line] = (await once(createInterface({ input: child.stdout as NodeJS.ReadableStream }), 'line')) as [
    string,
  ];
  return {
    name: 'bare node:http',
    child,
    origin: `http://127.0.0.1:${line}`,
    pids: () => [child.pid as number],
    async close() {
      child.kill();
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

function formatRow(name: string, figures: LoadFigures, baseline: LoadFigures): string {
  const ratio = figures.cpuMsPerRequest / baseline.cpuMsPerRequest;
  return [
    name.padEnd(16),
    Math.round(figures.requestsPerSecond).toString().padStart(8),
    figures.p50Ms.toFixed(1).padStart(6),
    figures.p99Ms.toFixed(1).padStart(6),
    figures.cpuMsPerRequest.toFixed(3).padStart(10),
    `×${ratio.toFixed(1)}`.padStart(8),
    figures.failures > 0 ? `  ${figures.failures} failed` : '',
  ].join(' ');
}

function medianFigures(runs: LoadFigures[]): LoadFigures {
  return {
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    cpuMsPerRequest: median(runs.map((run) => run.cpuMsPerRequest)),
    failures: runs.reduce((sum, run) => sum + run.failures, 0),
  };
}

/** The planner's statistics of the count just seeded, as the service would have them a while later. */
async function statisticsCurrent(targets: ServiceTarget[], size: number): Promise<void> {
  for (const { database } of targets) {
    if (!database) continue;
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('vacuum (analyze)').finally(() => client.end());
  }
  if (size >= 1000 && targets.some((target) => !target.database))
    await new Promise((resolve) => setTimeout(resolve, STATISTICS_CHECK_MS));
}

const services: ServiceTarget[] = [await serviceTarget('service, PGlite', {})];
if (process.env.BEFORE)
  services.push(await serviceTarget('before, PGlite', {}, undefined, process.env.BEFORE));
const postgresBin = databases.includes('postgres') ? findPostgresBin() : null;
if (postgresBin) {
  const database = await startPostgres(postgresBin, { durable: true });
  services.push(await serviceTarget('service, Postgres', { DATABASE_URL: database.url }, database));
} else if (databases.includes('postgres')) {
  console.log('PostgreSQL is not installed: the service is measured on PGlite only.');
}

let failures = 0;
/** CPU per request by scenario, target and profile count, for the growth at the end. */
const cpu = new Map<string, Map<number, number>>();
try {
  console.log(
    `${connections} connections, ${durationS} s per measurement after ${warmupS} s of warm-up, median of ${rounds} interleaved rounds`,
  );
  for (const size of sizes) {
    for (const target of services) await seed(target, size);
    await statisticsCurrent(services, size);
    const [first] = services as [ServiceTarget];
    const bare = await startBare(
      await Promise.all(Object.values(scenarios(first)).map((request) => record(first.origin, request))),
    );
    try {
      for (const [scenario, baselineRequest] of Object.entries(scenarios(first))) {
        if (chosenScenarios && !chosenScenarios.includes(scenario)) continue;
        const runs = new Map<string, LoadFigures[]>();
        // One unrecorded round each first: the JIT and the database's plan caches warm up.
        for (let round = warmupS > 0 ? -1 : 0; round < rounds; round++) {
          const measured: [Target, LoadRequest][] = [
            [bare, baselineRequest],
            ...services.map(
              (target) => [target, scenarios(target)[scenario] as LoadRequest] as [Target, LoadRequest],
            ),
          ];
          for (const [target, request] of measured) {
            const figures = await measureLoad(target.origin, request, {
              connections,
              durationS: round < 0 ? warmupS : durationS,
              pids: target.pids(),
            });
            if (round >= 0) runs.set(target.name, [...(runs.get(target.name) ?? []), figures]);
          }
        }
        const baseline = medianFigures(runs.get(bare.name) ?? []);
        console.log(`\n${scenario}, ${size} profiles`);
        console.log(
          `${'target'.padEnd(16)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(6)} ${'p99 ms'.padStart(6)} ${'CPU ms/req'.padStart(10)} ${'vs bare'.padStart(8)}`,
        );
        for (const [name, figures] of runs) {
          const summary = medianFigures(figures);
          if (name !== bare.name) failures += summary.failures;
          console.log(formatRow(name, summary, baseline));
          const key = `${scenario}, ${name}`;
          cpu.set(key, (cpu.get(key) ?? new Map()).set(size, summary.cpuMsPerRequest));
        }
      }
    } finally {
      await bare.close();
    }
  }
} finally {
  for (const target of services) await target.close();
}
printGrowth(cpu, sizes.includes(1000) ? 1000 : Math.min(...sizes), Math.max(...sizes));

/** Each request's CPU per request at `large` profiles against at `small`, where both were measured. */
function printGrowth(figures: Map<string, Map<number, number>>, small: number, large: number): void {
  const rows = [...figures].filter(([, bySize]) => bySize.has(small) && bySize.has(large) && small !== large);
  if (rows.length === 0) return;
  console.log(`\ngrowth, CPU ms/req at ${large} profiles against at ${small}`);
  for (const [key, bySize] of rows) {
    const [before, after] = [bySize.get(small) as number, bySize.get(large) as number];
    console.log(
      `${key.padEnd(34)} ${before.toFixed(3).padStart(8)} ${after.toFixed(3).padStart(8)}  ×${(after / before).toFixed(1)}`,
    );
  }
}
if (failures > 0) {
  console.log(`\n${failures} requests failed`);
  process.exitCode = 1;
}
