/**
 * One account floods the service (issue 54: view-only socket messages, bulk work, help request lists, sign-in-link
 * guesses, proxy pastes, a batch export) while another asks as usual: its median request time during each flood
 * beside its median idle just before. Bound: ×1.5 on PostgreSQL, ×3 on the embedded database (one statement at a time).
 * Run: npm run bench   Settings: FLOOD_S (4 s a flood, as long idle before it), FLOODS (all, or some names),
 * FLOOD_PROFILES (1100 profiles of the flooding account), DATABASES (pglite,postgres; postgres when installed).
 * Not a pass/fail test: the figures are for reading, and the machine may be shared.
 */
import { once } from 'node:events';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import WebSocket from 'ws';
import { type ServiceHandle, startService } from '../support/harness';
import { findPostgresBin, type PostgresServer, startPostgres } from '../support/postgres-server';
import { median } from './support/load';

const floodMs = Number(process.env.FLOOD_S ?? 4) * 1000;
const chosen = process.env.FLOODS?.split(',');
const profileCount = Number(process.env.FLOOD_PROFILES ?? 1100);
const databases = (process.env.DATABASES ?? 'pglite,postgres').split(',');

interface Target {
  origin: string;
  /** The flooding account's key. */
  key: string;
  /** A running session of the flooding account. */
  session: { id: string; live_view_readonly_url: string } | null;
  /** A batch of the flooding account whose export is some megabytes. */
  batchId: string | null;
}

type Send = (
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<Response>;

const sender =
  (origin: string, key: string): Send =>
  (method, path, body, headers = {}) =>
    fetch(`${origin}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

/** A flood: `loops` copies of `once`, each again as soon as it ends, until the flood is over. */
interface Flood {
  name: string;
  loops: number;
  once(target: Target, send: Send): Promise<void>;
  /** Instead of `once`: runs until `over` aborts (sockets). */
  run?(target: Target, over: AbortSignal): Promise<void>;
}

const drain = async (response: Promise<Response>) => void (await (await response).arrayBuffer());
const everyProfile = { filter: {} };
const unknownIds = Array.from({ length: 10_000 }, (_, n) => `pro_unknown${String(n).padStart(8, '0')}`);
const proxyLines = Array.from(
  { length: 1000 },
  (_, n) => `http://user${n}:secret@proxy${n % 250}.example:${8000 + n}`,
);

const FLOODS: Flood[] = [
  {
    name: 'view-only socket messages ×4',
    loops: 4,
    once: async () => {},
    run: (target, over) => socketFlood(target.session?.live_view_readonly_url ?? null, over),
  },
  {
    name: `bulk add_tags on ${profileCount} ×8`,
    loops: 8,
    once: (_, send) =>
      drain(send('POST', '/v1/profiles/bulk', { select: everyProfile, action: 'add_tags', tags: ['flood'] })),
  },
  {
    name: 'bulk of 10,000 unknown ids ×4',
    loops: 4,
    once: (_, send) =>
      drain(
        send('POST', '/v1/profiles/bulk', { select: { ids: unknownIds }, action: 'add_tags', tags: ['x'] }),
      ),
  },
  {
    name: 'bulk set_proxy of 1,000 lines ×2',
    loops: 2,
    once: (_, send) =>
      drain(
        send('POST', '/v1/profiles/bulk', {
          select: { filter: { tag: 'first-thousand' } },
          action: 'set_proxy',
          proxies: proxyLines,
        }),
      ),
  },
  {
    name: 'proxy paste of 1,000 lines ×2',
    loops: 2,
    once: (_, send) => drain(send('POST', '/v1/proxies/paste', { lines: proxyLines })),
  },
  {
    name: 'help request lists ×8',
    loops: 8,
    once: (_, send) => drain(send('GET', '/v1/help-requests?status=open')),
  },
  {
    name: 'sign-in-link guesses ×8',
    loops: 8,
    once: (target) =>
      drain(
        fetch(`${target.origin}/dashboard/api/sign-in/link`, {
          method: 'POST',
          headers: { Origin: target.origin, 'Content-Type': 'application/json' },
          body: JSON.stringify({ token: Math.random().toString(36).slice(2).padEnd(43, 'x') }),
        }),
      ),
  },
  {
    name: 'batch export ×4',
    loops: 4,
    once: (target, send) =>
      target.batchId
        ? drain(send('GET', `/v1/automation/batches/${target.batchId}/export?format=json`))
        : idle(),
  },
];

const chosenFloods = FLOODS.filter((each) => !chosen || chosen.some((pick) => each.name.startsWith(pick)));
const idle = () => new Promise<void>((resolve) => setTimeout(resolve, 100));

/** Opens the view-only socket and sends `watch` messages as fast as it takes them, again whenever it is closed. */
async function socketFlood(url: string | null, over: AbortSignal): Promise<void> {
  if (!url) return;
  while (!over.aborted) {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/socket`);
    await new Promise<void>((resolve) => {
      const message = JSON.stringify({ type: 'watch', tab: 'none' });
      const pump = () => {
        for (let sent = 0; sent < 100 && socket.readyState === WebSocket.OPEN && !over.aborted; sent++)
          socket.send(message);
        if (socket.readyState === WebSocket.OPEN && !over.aborted) setImmediate(pump);
        else socket.close();
      };
      socket.once('open', pump);
      const stop = () => socket.close();
      over.addEventListener('abort', stop, { once: true });
      socket.once('close', () => {
        over.removeEventListener('abort', stop);
        resolve();
      });
      socket.once('error', () => {});
    });
  }
}

/** The other account's request, again and again for `ms`: its answer times. */
async function askAlong(send: Send, ms: number): Promise<number[]> {
  const times: number[] = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const started = performance.now();
    const response = await send('GET', '/v1/profiles?limit=20');
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`the other account got ${response.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

/** The other account's times while `flood` runs in a thread of its own (its sending costs this one nothing). */
async function during(flood: Flood, target: Target, victim: Send): Promise<number[]> {
  // Through tsx's loader, which a worker does not inherit (as server/browser/relay-threads.ts does).
  const load = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(import.meta.url)}); });`;
  const worker = new Worker(load, { eval: true, workerData: { flood: flood.name, target } });
  await once(worker, 'message');
  try {
    return await askAlong(victim, floodMs);
  } finally {
    worker.postMessage('stop');
    await once(worker, 'exit');
  }
}

/** In the flood's thread: its loops, until told to stop. */
async function flooding(name: string, target: Target): Promise<void> {
  const flood = FLOODS.find((each) => each.name === name) as Flood;
  const over = new AbortController();
  parentPort?.once('message', () => over.abort());
  const send = sender(target.origin, target.key);
  const loop = async () => {
    while (!over.signal.aborted) await flood.once(target, send).catch(() => {});
  };
  const loops = Array.from({ length: flood.loops }, () =>
    flood.run ? flood.run(target, over.signal) : loop(),
  );
  parentPort?.postMessage('flooding');
  await Promise.all(loops);
}

/** The flooding account: its profiles (the first thousand tagged), a session, and a batch of some megabytes. */
async function prepare(service: ServiceHandle): Promise<Target> {
  const key = await service.createKey('enterprise', 'flooder');
  const send = sender(service.baseUrl, key);
  const rows = Array.from(
    { length: profileCount },
    (_, n) => `Flood ${n},,${n < 1000 ? 'first-thousand' : 'rest'},`,
  );
  const sheet = await fetch(`${service.baseUrl}/v1/profiles/import`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'text/csv' },
    body: `name,proxy,tags,notes\n${rows.join('\n')}\n`,
  });
  if (sheet.status !== 200) throw new Error(`importing the flooder's profiles: ${await sheet.text()}`);
  const session = chosenFloods.some((flood) => flood.run) ? await startSession(send) : null;
  const batchId = chosenFloods.some((flood) => flood.name.startsWith('batch')) ? await bigBatch(send) : null;
  return { origin: service.baseUrl, key, session, batchId };
}

async function startSession(send: Send): Promise<Target['session']> {
  const profile = (await (await send('POST', '/v1/profiles', { name: 'Flood session' })).json()) as {
    id: string;
  };
  const started = await send('POST', '/v1/sessions/start', { profile_id: profile.id, headless: true });
  return started.status === 201 ? await started.json() : null;
}

/** A batch of 4 runs with an output of 2.5 MB each: its export is some 10 MB, as the issue's. */
async function bigBatch(send: Send): Promise<string | null> {
  const ids: string[] = [];
  for (let n = 0; n < 4; n++)
    ids.push(
      ((await (await send('POST', '/v1/profiles', { name: `Batch ${n}` })).json()) as { id: string }).id,
    );
  const script = {
    steps: [{ action: 'evaluate', expression: `'x'.repeat(2500000)`, name: 'text' }],
  };
  const queued = await send('POST', '/v1/profiles/bulk', { select: { ids }, action: 'run', script });
  const batchId = ((await queued.json()) as { batch_id?: string }).batch_id ?? null;
  for (let tries = 0; batchId && tries < 240; tries++) {
    const batch = (await (await send('GET', `/v1/automation/batches/${batchId}`)).json()) as {
      finished?: boolean;
    };
    if (batch.finished) return batchId;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return null;
}

async function benchOn(name: string, bound: number, env: Record<string, string>, database?: PostgresServer) {
  const service = await startService({ env: { HEADLESS: 'true', ...env } });
  try {
    const target = await prepare(service);
    const victim = sender(service.baseUrl, await service.createKey('enterprise', 'the other account'));
    await sender(service.baseUrl, target.key)('POST', '/v1/profiles', { name: 'warm' });
    await askAlong(victim, 500);
    console.log(
      `\n${name}: the other account's GET /v1/profiles?limit=20 (ms), idle and while one account floods`,
    );
    console.log(
      `${'flood'.padEnd(36)} ${'idle'.padStart(7)} ${'flood'.padStart(7)}   ratio  (at most ×${bound})`,
    );
    for (const flood of chosenFloods) {
      const quiet = median(await askAlong(victim, floodMs));
      const flooded = median(await during(flood, target, victim));
      const ratio = flooded / quiet;
      const skipped =
        (flood.run && !target.session) || (flood.name.startsWith('batch') && !target.batchId)
          ? ' (not run)'
          : '';
      console.log(
        `${flood.name.padEnd(36)} ${quiet.toFixed(1).padStart(7)} ${flooded.toFixed(1).padStart(7)}   ×${ratio.toFixed(2)}${ratio > bound ? '  over the bound' : ''}${skipped}`,
      );
    }
  } finally {
    await service.close();
    await database?.stop();
  }
}

async function main(): Promise<void> {
  if (databases.includes('pglite')) await benchOn('embedded database (PGlite)', 3, {});
  const postgresBin = findPostgresBin();
  if (databases.includes('postgres') && postgresBin) {
    const database = await startPostgres(postgresBin, { durable: true });
    await benchOn('PostgreSQL', 1.5, { DATABASE_URL: database.url }, database);
  }
}

(isMainThread ? main() : flooding(workerData.flood, workerData.target)).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
