/**
 * Session traffic against raw Chromium, interleaved in one run (each round alternates which goes first): one
 * browser loading a page of many scripts and streaming one file, then every browser streaming a file at once
 * while the API's `GET /v1/profiles?limit=50` is timed over and over; then the same streams over HTTPS, which
 * the relays carry as CONNECT tunnels. The sessions' traffic goes through their relays; the raw browsers' goes
 * straight to the site. Pages and files are served on loopback by a process of their own (the service allows
 * loopback egress here).
 * Run: npm run bench   Settings: TRAFFIC_ROUNDS (3), TRAFFIC_BROWSERS (6), TRAFFIC_SCRIPTS (300), TRAFFIC_MB (64).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { createInterface } from 'node:readline';
import WebSocket from 'ws';
import { createClient } from '../../lib/api/client';
import { PROJECT_ROOT } from '../../server/core/config';
import { startService } from '../support/harness';
import { median } from './support/load';
import {
  chromePathForBench,
  closeRaw,
  launchRaw,
  type RawBrowser,
  removeRawFolder,
} from './support/raw-chromium';

const rounds = Number(process.env.TRAFFIC_ROUNDS ?? 3);
const browsers = Number(process.env.TRAFFIC_BROWSERS ?? 6);
const scripts = Number(process.env.TRAFFIC_SCRIPTS ?? 300);
const mib = Number(process.env.TRAFFIC_MB ?? 64);
const chromePath = chromePathForBench();

type Send = (
  method: string,
  params?: Record<string, unknown>,
  sessionId?: string,
) => Promise<Record<string, unknown>>;

/** DevTools over a session's `cdp_url`, the way any client of the service drives its browser. */
async function overWebSocket(url: string): Promise<{ send: Send; close(): void }> {
  const socket = new WebSocket(url);
  await once(socket, 'open');
  let lastId = 0;
  const pending = new Map<
    number,
    (message: { result?: Record<string, unknown>; error?: { message: string } }) => void
  >();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    if (message.id !== undefined) pending.get(message.id)?.(message);
  });
  const send: Send = (method, params = {}, sessionId) =>
    new Promise((resolve, reject) => {
      const id = ++lastId;
      pending.set(id, (message) => {
        pending.delete(id);
        if (message.error) reject(new Error(`${method}: ${message.error.message}`));
        else resolve(message.result ?? {});
      });
      socket.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
    });
  return { send, close: () => socket.close() };
}

/** A tab on the site's blank page, and the way to evaluate a promise in it. */
async function openTab(send: Send, origin: string): Promise<(expression: string) => Promise<unknown>> {
  const { targetId } = await send('Target.createTarget', { url: `${origin}/blank` });
  const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as {
    sessionId: string;
  };
  const evaluate = async (expression: string) => {
    const answer = (await send(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      sessionId,
    )) as {
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    };
    if (answer.exceptionDetails)
      throw new Error(answer.exceptionDetails.exception?.description ?? answer.exceptionDetails.text);
    return answer.result.value;
  };
  for (let tries = 0; ; tries++) {
    const where = await evaluate('document.readyState === "complete" ? location.href : ""').catch(() => '');
    if (where === `${origin}/blank`) return evaluate;
    if (tries > 100) throw new Error(`the bench tab did not open ${origin}/blank`);
    await new Promise((settle) => setTimeout(settle, 50));
  }
}

const loadPage = `new Promise((resolve, reject) => {
  document.body.replaceChildren();
  const frame = document.createElement('iframe');
  frame.onload = () => resolve(frame.contentWindow.loaded);
  frame.onerror = reject;
  frame.src = '/page?n=${scripts}&r=' + Math.random();
  document.body.append(frame);
})`;

/** Streams the file from `origin` (the tab's own when empty) and answers how many bytes came. */
const download = (origin = '') => `(async () => {
  const response = await fetch('${origin}/bytes?mb=${mib}&r=' + Math.random());
  const reader = response.body.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.length;
  }
})()`;

async function timed(action: () => Promise<unknown>, expected: unknown): Promise<number> {
  const started = performance.now();
  const value = await action();
  if (value !== expected) throw new Error(`the bench expected ${expected}, the browser answered ${value}`);
  return performance.now() - started;
}

const site = spawn(process.execPath, ['--import', 'tsx', path.join('test/bench/support/loopback-site.ts')], {
  cwd: PROJECT_ROOT,
  stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
});
const [sitePorts] = (await once(
  createInterface({ input: site.stdout as NodeJS.ReadableStream }),
  'line',
)) as [string];
const [plainPort, securePort] = sitePorts.split(' ');
const origin = `http://127.0.0.1:${plainPort}`;
const secureOrigin = `https://127.0.0.1:${securePort}`;
/** The site's certificate is made for the run: every browser, raw or a session, is told to accept it. */
const acceptRunCertificate = (send: Send) => send('Security.setIgnoreCertificateErrors', { ignore: true });

const service = await startService({ env: { EGRESS_ALLOW: 'loopback', MAX_BROWSERS: String(browsers + 2) } });
const apiKey = await service.createKey('enterprise', 'bench');
const client = createClient({ baseUrl: service.baseUrl, apiKey, fetch });
const raws: RawBrowser[] = [];
const sockets: { close(): void }[] = [];
const figures = new Map<string, number[]>();
const note = (name: string, value: number) => figures.set(name, [...(figures.get(name) ?? []), value]);

/** Times the list of 50 over and over, one request at a time, until `done` settles; returns the p95 in ms. */
async function apiP95While(done: Promise<unknown>): Promise<number> {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const latencies: number[] = [];
  while (!finished) {
    const started = performance.now();
    const response = await fetch(`${service.baseUrl}/v1/profiles?limit=50`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`the list answered ${response.status}`);
    latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  return latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.95))] ?? Number.NaN;
}

try {
  for (let index = 0; index < 50; index++) await client.createProfile({ name: `Traffic ${index}` });
  const serviceTabs: ((expression: string) => Promise<unknown>)[] = [];
  const rawTabs: ((expression: string) => Promise<unknown>)[] = [];
  for (let index = 0; index < browsers; index++) {
    const profile = await client.createProfile({ name: `Traffic session ${index}` });
    const session = await client.startSession({ profile_id: profile.id, headless: true });
    const devtools = await overWebSocket(session.cdp_url as string);
    sockets.push(devtools);
    await acceptRunCertificate(devtools.send);
    serviceTabs.push(await openTab(devtools.send, origin));
    const raw = await launchRaw(chromePath);
    raws.push(raw);
    const rawSend: Send = (method, params, sessionId) => raw.pipe.send(method, params, sessionId);
    await acceptRunCertificate(rawSend);
    rawTabs.push(await openTab(rawSend, origin));
  }
  const groups = [
    ['sessions', serviceTabs],
    ['raw', rawTabs],
  ] as const;
  // One unrecorded round first: caches, JIT and the relays' first connections.
  for (let round = -1; round < rounds; round++) {
    const order = round % 2 === 0 ? groups : [...groups].reverse();
    for (const [name, tabs] of order) {
      const [first] = tabs as [(expression: string) => Promise<unknown>];
      const page = await timed(() => first(loadPage), scripts);
      const one = await timed(() => first(download()), mib * 1024 * 1024);
      const started = performance.now();
      const all = Promise.all(tabs.map((tab) => timed(() => tab(download()), mib * 1024 * 1024)));
      const p95 = await apiP95While(all);
      await all;
      const allSeconds = (performance.now() - started) / 1000;
      const oneSecure = await timed(() => first(download(secureOrigin)), mib * 1024 * 1024);
      const secureStarted = performance.now();
      await Promise.all(tabs.map((tab) => timed(() => tab(download(secureOrigin)), mib * 1024 * 1024)));
      const allSecureSeconds = (performance.now() - secureStarted) / 1000;
      if (round < 0) continue;
      note(`${name} page`, page);
      note(`${name} one download`, mib / (one / 1000));
      note(`${name} all download`, (mib * tabs.length) / allSeconds);
      note(`${name} api p95`, p95);
      note(`${name} one secure download`, mib / (oneSecure / 1000));
      note(`${name} all secure download`, (mib * tabs.length) / allSecureSeconds);
    }
  }
} finally {
  for (const socket of sockets) socket.close();
  await service.close();
  for (const raw of raws) {
    await closeRaw(raw);
    await removeRawFolder(raw);
  }
  site.kill();
}

const spread = (values: number[], digits: number) =>
  `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
const row = (label: string, figure: string, unit: string, digits: number) => {
  const sessions = figures.get(`sessions ${figure}`) ?? [];
  const raw = figures.get(`raw ${figure}`) ?? [];
  const ratios = sessions.map((value, index) => value / (raw[index] ?? Number.NaN));
  return [
    label.padEnd(34),
    `${median(sessions).toFixed(digits)} ${unit} (${spread(sessions, digits)})`.padEnd(28),
    `${median(raw).toFixed(digits)} ${unit} (${spread(raw, digits)})`.padEnd(28),
    `×${median(ratios).toFixed(2)} (${spread(ratios, 2)})`,
  ].join(' ');
};
console.log(`\nsession traffic, ${browsers} browsers, median of ${rounds} interleaved rounds (range)`);
console.log(`${''.padEnd(34)} ${'sessions'.padEnd(28)} ${'raw Chromium'.padEnd(28)} sessions / raw`);
console.log(row(`page of ${scripts} scripts`, 'page', 'ms', 0));
console.log(row(`one ${mib} MiB download`, 'one download', 'MiB/s', 0));
console.log(row(`${browsers} downloading at once`, 'all download', 'MiB/s', 0));
console.log(row('list of 50, p95 meanwhile', 'api p95', 'ms', 1));
console.log(row(`one ${mib} MiB download, HTTPS`, 'one secure download', 'MiB/s', 0));
console.log(row(`${browsers} downloading at once, HTTPS`, 'all secure download', 'MiB/s', 0));
