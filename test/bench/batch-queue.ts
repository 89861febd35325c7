/**
 * A batch of two-step runs on a service with MAX_BROWSERS=4, against its ideal measured in the same run: the
 * batch's wall time (from the bulk POST to "finished") against (runs ÷ 4) × one run's time alone (from its POST
 * to its result, its browser started and stopped for it; median of 3); and another account's API p95 while the
 * batch runs against the same account's p95 with the service idle. Beside the ideal, (runs ÷ 4) × the time of four
 * runs posted at once (no line: each has its browser at once): what the machine's cores allow four browsers,
 * so that the queue's own cost reads apart from theirs (on 2 cores, four launches at once take longer than one).
 * Beside them, the CPU seconds a run takes (the service and its browsers, alone and in the batch), and the batch's
 * CPU over the cores: the least wall time the machine allows it.
 * Run: npm run bench   Settings: BATCH_RUNS (200), IDLE_S (5: how long the idle p95 is measured).
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { type ApiClient, createClient } from '../../lib/api/client';
import { ApiError } from '../../lib/api/errors';
import type { Script } from '../../lib/api/inputs/automation';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import { startService } from '../support/harness';
import { median } from './support/load';
import { cpuSecondsWithEnded } from './support/proc-cpu';

const runs = Number(process.env.BATCH_RUNS ?? 200);
const idleS = Number(process.env.IDLE_S ?? 5);
const MAX_BROWSERS = 4;

const site = createServer((_request, response) => {
  response.writeHead(200, { 'Content-Type': 'text/html' }).end('<title>Bench</title><h1>Bench page</h1>');
});
site.listen(0, '127.0.0.1');
await once(site, 'listening');
const pageUrl = `http://127.0.0.1:${(site.address() as { port: number }).port}/`;
const script: Script = {
  steps: [
    { action: 'goto', url: pageUrl },
    { action: 'evaluate', expression: 'document.title', name: 'title' },
  ],
};

async function timed<T>(action: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await action();
  return [performance.now() - started, result];
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] as number;
}

/** Times `GET /v1/profiles?limit=20` one after another until `done` says stop (at least `least` of them). */
async function latencies(client: ApiClient, done: () => boolean, least: number): Promise<number[]> {
  const times: number[] = [];
  while (times.length < least || !done()) {
    // A request that gets no answer in the client's time counts as the time it waited; a refusal is no latency.
    const noAnswer = (error: unknown) => {
      if (error instanceof ApiError && error.status !== 0) throw error;
    };
    times.push((await timed(() => client.listProfiles({ limit: 20 }).catch(noAnswer)))[0]);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return times;
}

async function untilFinished(client: ApiClient, run: AutomationRun): Promise<AutomationRun> {
  let current = run;
  while (current.status === 'queued' || current.status === 'running') {
    current = await client.getRun(current.id, { wait: 25, until: 'finished' });
  }
  return current;
}

const service = await startService({ env: { EGRESS_ALLOW: 'loopback', MAX_BROWSERS: String(MAX_BROWSERS) } });
const batcher = createClient({
  baseUrl: service.baseUrl,
  apiKey: await service.createKey('enterprise', 'batch'),
  fetch,
});
const other = createClient({
  baseUrl: service.baseUrl,
  // Enterprise, which has no hourly quota: a Premium account asking this often has none left within a minute.
  apiKey: await service.createKey('enterprise', 'other'),
  fetch,
});
try {
  for (let n = 0; n < 20; n++) await other.createProfile({ name: `Other ${n}` });
  const ids: string[] = [];
  for (let n = 0; n < runs; n++) ids.push((await batcher.createProfile({ name: `Fleet ${n}` })).id);

  const cpu = () => cpuSecondsWithEnded(service.pid);
  const cpuBeforeAlone = cpu();
  const alone: number[] = [];
  for (const id of ids.slice(0, 3)) {
    const [ms, run] = await timed(async () =>
      untilFinished(batcher, await batcher.runAutomation({ profile_id: id, script })),
    );
    if (run.status !== 'succeeded') throw new Error(`the lone run ${run.status}: ${run.error}`);
    alone.push(ms);
  }
  const oneRun = median(alone);
  const cpuAlone = (cpu() - cpuBeforeAlone) / alone.length;
  const [fourAtOnce] = await timed(() =>
    Promise.all(
      ids.slice(3, 3 + MAX_BROWSERS).map(async (id) => {
        const run = await untilFinished(batcher, await batcher.runAutomation({ profile_id: id, script }));
        if (run.status !== 'succeeded') throw new Error(`a run of four at once ${run.status}: ${run.error}`);
      }),
    ),
  );

  const idleUntil = Date.now() + idleS * 1000;
  const cpuBeforeIdle = cpu();
  const idle = await latencies(other, () => Date.now() > idleUntil, 50);
  const cpuARequest = (cpu() - cpuBeforeIdle) / idle.length;

  let finished = false;
  const cpuBeforeBatch = cpu();
  const busy = latencies(other, () => finished, 50);
  const [wall, batch] = await timed(async () => {
    const queued = await batcher.bulkProfiles({ select: { ids }, action: 'run', script });
    const batchId = queued.batch_id as string;
    for (;;) {
      const current = await batcher.getBatch(batchId);
      if (current.finished) return current;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });
  finished = true;
  const loaded = await busy;
  // Less the other account's requests, at their cost measured idle.
  const cpuBatch = cpu() - cpuBeforeBatch - loaded.length * cpuARequest;

  const ideal = (runs / MAX_BROWSERS) * oneRun;
  console.log(`\na batch of ${runs} two-step runs on MAX_BROWSERS=${MAX_BROWSERS}: ${batch.summary}`);
  console.log(
    `batch wall time        ${(wall / 1000).toFixed(1).padStart(7)} s    ideal (${runs} ÷ ${MAX_BROWSERS} × one run of ${(oneRun / 1000).toFixed(2)} s) ${(ideal / 1000).toFixed(1).padStart(7)} s   ×${(wall / ideal).toFixed(2)}`,
  );
  const fourPaced = (runs / MAX_BROWSERS) * fourAtOnce;
  console.log(
    `                               four at once (${runs} ÷ ${MAX_BROWSERS} × four runs posted together in ${(fourAtOnce / 1000).toFixed(2)} s) ${(fourPaced / 1000).toFixed(1).padStart(7)} s   ×${(wall / fourPaced).toFixed(2)}`,
  );
  // CPU of the service and of its browsers that ended: the least wall time the batch can take on this machine's
  // cores, were they all its own.
  const cores = availableParallelism();
  console.log(
    `CPU a run (service and its browsers)  alone ${cpuAlone.toFixed(2)} s   in the batch ${(cpuBatch / runs).toFixed(2)} s   the batch's ${cpuBatch.toFixed(1)} s ÷ ${cores} cores ${(cpuBatch / cores).toFixed(1)} s   ×${(cpuBatch / cores / (ideal / 1000)).toFixed(2)} of ideal`,
  );
  console.log(
    `other account's p95     ${p95(loaded).toFixed(1).padStart(7)} ms   idle p95 ${p95(idle).toFixed(1).padStart(7)} ms   ×${(p95(loaded) / p95(idle)).toFixed(2)}   (${loaded.length} and ${idle.length} requests)`,
  );
} finally {
  await service.close();
  site.close();
}
