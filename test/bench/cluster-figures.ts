/**
 * The figures of docs/scaling.md, measured on this machine: database statements per request (per kind, per plan)
 * and per session start and stop, counted by PostgreSQL's pg_stat_statements; requests per second of one service
 * process and of two on the same PostgreSQL; and the memory a running session's browser takes (its processes'
 * proportional set size), hence browsers per GiB.
 * Run: npm run bench:cluster   Settings: REQUESTS (200), SESSIONS (4), DURATION_S (5), CONNECTIONS (10).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { requester, type ServiceHandle, startService } from '../support/harness';
import { postgresForTests, startPostgres } from '../support/postgres-server';
import { measureLoad } from './support/load';
import { processTree } from './support/proc-cpu';

const requests = Number(process.env.REQUESTS ?? 200);
const sessions = Number(process.env.SESSIONS ?? 4);
const durationS = Number(process.env.DURATION_S ?? 5);
const connections = Number(process.env.CONNECTIONS ?? 10);
const JSON_HEADERS = { 'Content-Type': 'application/json' };

const bin = postgresForTests();
if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql).');
const postgres = await startPostgres(bin, {
  settings: { shared_preload_libraries: 'pg_stat_statements' },
  durable: true,
});
const db = new pg.Client({ connectionString: postgres.url });
await db.connect();
await db.query('create extension if not exists pg_stat_statements');
const env = { DATABASE_URL: postgres.url, HEADLESS: 'true' };
const nodes: ServiceHandle[] = [await startService({ env }), await startService({ env })];
const [first] = nodes as [ServiceHandle];

/** Statements the service processes ran (everything but this script's own counting), since the last call. */
async function statementsSince(): Promise<number> {
  const { rows } = await db.query<{ calls: string }>(
    `select coalesce(sum(calls), 0) as calls from pg_stat_statements
      where query not ilike '%pg_stat_statements%'`,
  );
  await db.query('select pg_stat_statements_reset()');
  return Number(rows[0]?.calls ?? 0);
}

/** Statements per request of `send`, `count` times in a row, on the first process. */
async function perRequest(send: () => Promise<Response>, count: number): Promise<number> {
  await send(); // the statements are prepared and the key is cached: the steady state is measured
  await statementsSince();
  for (let index = 0; index < count; index++) {
    const answer = await send();
    if (!answer.ok) throw new Error(`a measured request answered ${answer.status}`);
  }
  return (await statementsSince()) / count;
}

/** Proportional set size of a process tree, in MiB: shared pages count once across the processes sharing them. */
function pssMiB(root: number): number {
  let kib = 0;
  for (const pid of processTree(root)) {
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      kib += Number(match?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return kib / 1024;
}

try {
  const keys = {
    enterprise: await first.createKey('enterprise', 'figures'),
    premium: await first.createKey('premium', 'figures'),
  };
  const lines: string[] = ['statements per request (pg_stat_statements, after one warm-up request)'];
  for (const plan of ['enterprise', 'premium'] as const) {
    const send = requester(first.baseUrl, keys[plan]);
    const created = await send('POST', '/v1/profiles', {
      headers: JSON_HEADERS,
      body: JSON.stringify({ name: 'Figures' }),
    });
    const profileId = ((await created.json()) as { id: string }).id;
    const list = await perRequest(() => send('GET', '/v1/profiles?limit=50'), requests);
    const get = await perRequest(() => send('GET', `/v1/profiles/${profileId}`), requests);
    const create = await perRequest(
      () =>
        send('POST', '/v1/profiles', { headers: JSON_HEADERS, body: JSON.stringify({ name: 'One more' }) }),
      Math.min(requests, 50),
    );
    lines.push(
      `  ${plan.padEnd(10)} list ${list.toFixed(2)}, get ${get.toFixed(2)}, create ${create.toFixed(2)}`,
    );
  }

  const send = requester(first.baseUrl, keys.enterprise);
  const profiles: string[] = [];
  for (let index = 0; index < sessions; index++) {
    const answer = await send('POST', '/v1/profiles', {
      headers: JSON_HEADERS,
      body: JSON.stringify({ name: `S${index}` }),
    });
    profiles.push(((await answer.json()) as { id: string }).id);
  }
  await statementsSince();
  const started: { id: string; pid: number }[] = [];
  for (const id of profiles) {
    const answer = await send('POST', '/v1/sessions/start', {
      headers: JSON_HEADERS,
      body: JSON.stringify({ profile_id: id }),
    });
    if (answer.status !== 201) throw new Error(`a session start answered ${answer.status}`);
    const session = (await answer.json()) as { id: string };
    const { rows } = await db.query<{ pid: number }>('select pid from sessions where id = $1', [session.id]);
    started.push({ id: session.id, pid: rows[0]?.pid ?? 0 });
  }
  const perStart = (await statementsSince()) / sessions;
  const memory = started.map((session) => pssMiB(session.pid));
  const meanMiB = memory.reduce((sum, value) => sum + value, 0) / memory.length;
  for (const session of started) await send('DELETE', `/v1/sessions/stop?session_id=${session.id}`);
  const perStop = (await statementsSince()) / sessions;
  lines.push(
    `statements per session start ${perStart.toFixed(1)}, per stop ${perStop.toFixed(1)} (${sessions} sessions)`,
  );
  lines.push(
    `a headless session's browser on about:blank: ${meanMiB.toFixed(0)} MiB PSS (${memory.map((value) => value.toFixed(0)).join(', ')}), about ${(1024 / meanMiB).toFixed(1)} browsers per GiB`,
  );

  const request = {
    method: 'GET' as const,
    path: '/v1/profiles?limit=50',
    headers: { Authorization: `Bearer ${keys.enterprise}` },
  };
  const one = await measureLoad(first.baseUrl, request, { connections, durationS, pids: [first.pid] });
  const [a, b] = await Promise.all(
    nodes.map((node) =>
      measureLoad(node.baseUrl, request, {
        connections: Math.ceil(connections / 2),
        durationS,
        pids: [node.pid],
      }),
    ),
  );
  const both = (a?.requestsPerSecond ?? 0) + (b?.requestsPerSecond ?? 0);
  lines.push(
    `list of 50, ${connections} connections, ${durationS} s: one process ${one.requestsPerSecond.toFixed(0)} req/s; two processes together ${both.toFixed(0)} req/s (×${(both / one.requestsPerSecond).toFixed(2)}) on the same ${os.availableParallelism()}-core machine and PostgreSQL`,
  );
  console.log(lines.join('\n'));
} finally {
  await Promise.all(nodes.map((node) => node.close()));
  await db.end();
  await postgres.stop();
}
