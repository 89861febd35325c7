/**
 * The live view: the time from a change in a session's page to the viewer's screen (median and p95, for one
 * viewer and for four on the same session), the service's CPU per viewer while the page changes all the time,
 * and the service's other requests (GET /v1/profiles) without and with four viewers.
 * Run: npm run bench (or node --import tsx test/bench/live-view.ts)
 * Settings: LIVE_CHANGES (40), LIVE_CPU_MS (8000), LIVE_LOAD_S (4).
 * Not a pass/fail test: the figures are for reading, and the machine may be shared.
 */
import { chromium, type Page } from 'playwright-core';
import { createClient } from '../../lib/api/client';
import { CHROMIUM } from '../support/browser-fixtures';
import { startService } from '../support/harness';
import { measureLoad, median } from './support/load';
import { ownCpuSeconds } from './support/proc-cpu';

const changes = Number(process.env.LIVE_CHANGES ?? 40);
const CPU_WINDOW_MS = Number(process.env.LIVE_CPU_MS ?? 8000);
const loadS = Number(process.env.LIVE_LOAD_S ?? 4);

const service = await startService();
const key = await service.createKey('enterprise', 'bench');
const client = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
const viewers = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });

declare global {
  interface Window {
    /** When (Date.now) each colour was first seen in a frame, by its red value. */
    seen: Record<number, number>;
    ticking: number;
  }
}

/** A viewer that notes when each frame's colour (its red value) first reaches its screen. */
async function openViewer(url: string): Promise<Page> {
  const viewer = await viewers.newPage({ viewport: { width: 1000, height: 700 } });
  await viewer.goto(url);
  await viewer.waitForFunction(() => Number(document.body.dataset.frames ?? 0) > 0);
  await viewer.evaluate(() => {
    window.seen = {};
    const image = document.getElementById('screen') as HTMLImageElement;
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
    image.addEventListener('load', () => {
      context.drawImage(image, image.naturalWidth / 2, image.naturalHeight / 2, 1, 1, 0, 0, 1, 1);
      const red = Math.round((context.getImageData(0, 0, 1, 1).data[0] ?? 0) / 8);
      window.seen[red] ??= Date.now();
    });
  });
  return viewer;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}

/** Changes the page's colour `changes` times; the delay until each viewer saw each change. */
async function latencies(tab: Page, watching: Page[]): Promise<{ delays: number[]; missed: number }> {
  const delays: number[] = [];
  let missed = 0;
  for (let change = 0; change < changes; change++) {
    // Red values 8 apart (a JPEG frame keeps a flat colour within a few units): 32 colours, used in turn.
    const red = (change % 31) + 1;
    await Promise.all(watching.map((viewer) => viewer.evaluate((red) => delete window.seen[red], red)));
    const changedAt = Date.now();
    await tab.evaluate((red) => {
      document.body.style.background = `rgb(${red * 8}, 90, 90)`;
    }, red);
    for (const viewer of watching) {
      const seenAt = await viewer
        .waitForFunction((red) => window.seen[red], red, { timeout: 3000 })
        .then((handle) => handle.jsonValue() as Promise<number>)
        .catch(() => null);
      if (seenAt === null) missed += 1;
      else delays.push(seenAt - changedAt);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return { delays, missed };
}

/** The service's CPU (its own process, not the browsers) while the page changes every 50 ms, as % of a core. */
async function cpuWhileChanging(tab: Page): Promise<number> {
  await tab.evaluate(() => {
    let hue = 0;
    window.ticking = window.setInterval(() => {
      hue = (hue + 7) % 360;
      document.body.style.background = `hsl(${hue}, 60%, 50%)`;
    }, 50);
  });
  const before = ownCpuSeconds(service.pid);
  await new Promise((resolve) => setTimeout(resolve, CPU_WINDOW_MS));
  const used = ownCpuSeconds(service.pid) - before;
  await tab.evaluate(() => clearInterval(window.ticking));
  return (used * 100_000) / CPU_WINDOW_MS;
}

async function profileRequests(tab: Page) {
  await tab.evaluate(() => {
    window.ticking = window.setInterval(() => {
      document.body.style.background = `hsl(${Date.now() % 360}, 60%, 50%)`;
    }, 50);
  });
  const figures = await measureLoad(
    service.baseUrl,
    { method: 'GET', path: '/v1/profiles', headers: { Authorization: `Bearer ${key}` } },
    { connections: 5, durationS: loadS, pids: [service.pid] },
  );
  await tab.evaluate(() => clearInterval(window.ticking));
  return figures;
}

const lines: string[] = [];
try {
  const profile = await client.createProfile({ name: 'Bench' });
  const session = await client.startSession({ profile_id: profile.id, headless: true });
  const devtools = await chromium.connectOverCDP(session.cdp_url as string);
  const tab = devtools.contexts()[0]?.pages()[0];
  if (!tab) throw new Error('the session has no tab');
  await tab.goto('data:text/html,<title>Bench</title><body style="margin:0">');

  const idleCpu = await cpuWhileChanging(tab);
  const unwatched = await profileRequests(tab);
  const all: Page[] = [];
  for (const count of [1, 4]) {
    while (all.length < count) all.push(await openViewer(session.live_view_url as string));
    const { delays, missed } = await latencies(tab, all);
    lines.push(
      `${count} viewer${count === 1 ? ' ' : 's'}  change → screen  median ${median(delays).toFixed(0).padStart(4)} ms   p95 ${percentile(delays, 0.95).toFixed(0).padStart(4)} ms   (${delays.length} seen${missed ? `, ${missed} missed` : ''})`,
    );
    const cpu = await cpuWhileChanging(tab);
    lines.push(
      `${count} viewer${count === 1 ? ' ' : 's'}  service CPU while the page changes every 50 ms: ${cpu.toFixed(1)}% of a core (${idleCpu.toFixed(1)}% unwatched) → ${((cpu - idleCpu) / count).toFixed(1)}% per viewer`,
    );
  }
  const watched = await profileRequests(tab);
  const load = (figures: typeof watched) =>
    `${figures.requestsPerSecond.toFixed(0)} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms${figures.failures ? `, ${figures.failures} failed` : ''}`;
  lines.push(`GET /v1/profiles unwatched:          ${load(unwatched)}`);
  lines.push(`GET /v1/profiles with 4 viewers:     ${load(watched)}`);
  await devtools.close();
  await client.stopSession({ session_id: session.id });
} finally {
  await viewers.close();
  await service.close();
}
console.log(`\nlive view, ${changes} page changes per viewer count`);
for (const line of lines) console.log(line);
