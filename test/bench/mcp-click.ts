/**
 * MCP `browser_click` end to end, on this checkout's service and on a baseline checkout's, side by side in one
 * run: an agent (the MCP SDK's client over /v1/mcp) clicks a button on a loopback page in a started session, each
 * call timed from its request to its answer. Both services run as processes at once and take turns, a few clicks
 * each, so that a shared machine's load falls on both alike. Prints each one's median and p90, and their ratio.
 * Run: BASELINE=/path/to/a/checkout/of/main node --import tsx test/bench/mcp-click.ts
 * Settings: BASELINE (a checkout with its node_modules; this checkout alone when left out), CLICKS (30), TURN (5).
 * Not a pass/fail test: the figures are for reading, and the machine may be shared.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type ServiceHandle, startService } from '../support/harness';
import {
  call,
  connect,
  dataOf,
  httpTransport,
  refOf,
  servePages,
  snapshotOf,
  textOf,
} from '../support/mcp-client';
import { median } from './support/load';

const clicks = Number(process.env.CLICKS ?? 30);
const turn = Number(process.env.TURN ?? 5);
const WARM_UP_CLICKS = 3;

const COUNTER_PAGE = `<!doctype html><title>Counter</title>
<button onclick="document.getElementById('count').textContent = ++window.clicks">Count</button>
<p id="count">0</p><script>window.clicks = 0</script>`;

interface Target {
  name: string;
  service: ServiceHandle;
  client: Client;
  sessionId: string;
  ref: string;
  times: number[];
}

async function answer(client: Client, name: string, args: Record<string, unknown>) {
  const result = await call(client, name, args);
  if (result.isError) throw new Error(`${name}: ${textOf(result)}`);
  return dataOf(result);
}

async function target(name: string, root: string | undefined, pageUrl: string): Promise<Target> {
  const service = await startService({ root, env: { EGRESS_ALLOW: 'loopback' } });
  const client = await connect(
    httpTransport(service.baseUrl, await service.createKey('enterprise', 'bench')),
  );
  const profile = await answer(client, 'create_profile', { name: 'Click bench' });
  const session = await answer(client, 'start_session', { profile_id: profile.id, headless: true });
  const sessionId = session.id as string;
  await answer(client, 'browser_navigate', { session_id: sessionId, url: pageUrl });
  const ref = refOf(await snapshotOf(client, sessionId), 'button', 'Count');
  const ready: Target = { name, service, client, sessionId, ref, times: [] };
  for (let index = 0; index < WARM_UP_CLICKS; index++) await click(ready);
  ready.times = [];
  return ready;
}

async function click(clicking: Target): Promise<void> {
  const started = performance.now();
  await answer(clicking.client, 'browser_click', { session_id: clicking.sessionId, ref: clicking.ref });
  clicking.times.push(performance.now() - started);
}

async function close(done: Target): Promise<void> {
  await call(done.client, 'stop_session', { session_id: done.sessionId }).catch(() => undefined);
  await done.client.close();
  await done.service.close();
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] as number;
}

const site = await servePages(() => COUNTER_PAGE);
const targets: Target[] = [];
try {
  if (process.env.BASELINE) targets.push(await target('baseline', process.env.BASELINE, `${site.origin}/`));
  targets.push(await target('this checkout', undefined, `${site.origin}/`));
  while ((targets[0] as Target).times.length < clicks)
    for (const clicking of targets)
      for (let index = 0; index < turn && clicking.times.length < clicks; index++) await click(clicking);

  const base = targets.length > 1 ? median((targets[0] as Target).times) : null;
  console.log(`MCP browser_click, end to end over /v1/mcp (${clicks} clicks each, in turns of ${turn})`);
  for (const { name, times } of targets) {
    const middle = median(times);
    const ratio = base === null ? '' : `  ×${(middle / base).toFixed(2)} of baseline`;
    console.log(
      `  ${name.padEnd(14)} median ${middle.toFixed(1)} ms  p90 ${percentile(times, 0.9).toFixed(1)} ms${ratio}`,
    );
  }
} finally {
  await Promise.all(targets.map(close));
  await site.close();
}
