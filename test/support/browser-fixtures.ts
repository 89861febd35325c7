import { lstatSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { CHROME_INSTALL_HINT, findChrome } from '../../server/browser/find-chrome';
import { EgressPolicy } from '../../server/core/egress-policy';
import { createLogger } from '../../server/core/log';
import { ServedNames } from '../../server/http/served-names';
import { serveUpgrades } from '../../server/http/upgrades';
import { cdpEndpoint } from '../../server/routes/cdp-endpoint';
import { CdpTokens } from '../../server/sessions/cdp-tokens';
import { launchBrowser, type RunningBrowser } from '../../server/sessions/launch-browser';
import type { LaunchOptions } from '../../server/sessions/launch-options';

/** The Chromium the tests launch: CHROME_PATH when set (only it, as the service does), else the one found here. */
export const CHROMIUM = process.env.CHROME_PATH || findChrome() || failWith(CHROME_INSTALL_HINT);

function failWith(message: string): never {
  throw new Error(message);
}

/** The test servers and proxies listen on loopback, which sessions may reach only when the operator allows it. */
export const LOOPBACK_ALLOWED = EgressPolicy.parse('loopback');

export function makeTempDir(prefix: string): { path: string; remove(): void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), `${prefix}-`)));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Serves `/` and `/set-cookie?name=value` on 127.0.0.1 and records the headers of every request. */
export async function startPageServer() {
  const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ path: url.pathname, headers: req.headers });
    const [cookie] = url.searchParams;
    if (url.pathname === '/set-cookie' && cookie) {
      res.setHeader('Set-Cookie', `${cookie[0]}=${cookie[1]}; Max-Age=86400; Path=/`);
    } else if (url.pathname !== '/') {
      res.writeHead(404).end();
      return;
    }
    res.setHeader('Content-Type', 'text/html');
    res.end('<!doctype html><title>page server</title><p>hello</p>');
  });
  const port = await listen(server);
  return { origin: `http://127.0.0.1:${port}`, requests, close: () => close(server) };
}

/**
 * A forward proxy for absolute-form HTTP requests that demands `Proxy-Authorization: Basic user:pass`
 * (407 otherwise) and relays only to 127.0.0.1: the test machine has no other network. It says who relayed in a
 * `Via` header (`1.1 <user>`), as proxies do, so that a page can answer each proxy its own way.
 */
export async function startAuthenticatingProxy(username: string, password: string) {
  const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const seen: { url: string; authorized: boolean }[] = [];
  const server = createServer((req, res) => {
    const authorized = req.headers['proxy-authorization'] === expected;
    seen.push({ url: req.url ?? '', authorized });
    if (!authorized) {
      res.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    if (target.hostname !== '127.0.0.1') {
      res.writeHead(502).end();
      return;
    }
    const { 'proxy-authorization': _, 'proxy-connection': __, ...headers } = req.headers;
    const via = `1.1 ${username}`;
    const upstream = request(target, { method: req.method, headers: { ...headers, via } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, socket) => {
    seen.push({ url: req.url ?? '', authorized: req.headers['proxy-authorization'] === expected });
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  const port = await listen(server);
  return { port, seen, close: () => close(server) };
}

/** Pids of processes whose command line holds `--user-data-dir=<dir>`, read straight from /proc. */
export function processesWithUserDataDir(dir: string): number[] {
  const argument = `--user-data-dir=${dir}`;
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(argument);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Pids of the group's processes that have not ended (zombies wait for init, which reaps every ~1.5 s). */
export function liveProcessesInGroup(groupId: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return state !== 'Z' && Number(group) === groupId;
      } catch {
        return false;
      }
    })
    .map(Number);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** A session's browser as the service launches it, headless, allowed to reach loopback, with `options` over that. */
export function launchLoopbackBrowser(
  userDataDir: string,
  options: Partial<LaunchOptions> = {},
): Promise<RunningBrowser> {
  return launchBrowser({
    chromePath: CHROMIUM,
    userDataDir,
    headless: true,
    proxy: null,
    fingerprint: {},
    egress: LOOPBACK_ALLOWED,
    ...options,
  });
}

/** The port of a launched browser's relay, as its command line names it. */
export function relayPortOf(browser: RunningBrowser): number {
  const commandLine = readFileSync(`/proc/${browser.pid}/cmdline`, 'utf8');
  return Number(/--proxy-server=http:\/\/127\.0\.0\.1:(\d+)/.exec(commandLine)?.[1]);
}

/** Serves a launched browser's DevTools the way the service does (its CDP endpoint), and gives its ws:// URL. */
export async function relayDevtools(
  browser: RunningBrowser,
): Promise<{ url: string; close(): Promise<void> }> {
  const tokens = new CdpTokens();
  const server = createServer((_request, response) => response.writeHead(404).end());
  const devtools = cdpEndpoint({
    tokens,
    devtoolsOf: (sessionId) => (sessionId === 'ses_test' ? browser.devtools : null),
    peerOf: async () => null,
    log: createLogger({ level: 'error' }),
  });
  serveUpgrades(server, new ServedNames({ host: '127.0.0.1', nodeUrl: null, publicUrls: [] }), {}, devtools);
  const port = await listen(server);
  return { url: `ws://127.0.0.1:${port}${tokens.path('ses_test')}`, close: () => close(server) };
}

/** Every entry under `root` (itself included) whose mode lets group or others in, as "mode path". */
export function openToOthers(root: string): string[] {
  const open: string[] = [];
  const visit = (target: string) => {
    const stats = lstatSync(target);
    if (stats.isSymbolicLink()) return;
    if ((stats.mode & 0o077) !== 0) open.push(`${(stats.mode & 0o777).toString(8)} ${target}`);
    if (stats.isDirectory()) for (const name of readdirSync(target)) visit(join(target, name));
  };
  visit(root);
  return open;
}

export interface BrowserSuite {
  pages: Awaited<ReturnType<typeof startPageServer>>;
  browser: RunningBrowser;
  /** Playwright, connected over the browser's served DevTools as a `cdp_url` client. */
  cdp: Browser;
}

/**
 * A page server and a session's browser (`options` over launchLoopbackBrowser's) with Playwright on its DevTools,
 * started before the suite's tests and stopped after them. Its fields are there once the tests run.
 */
export function browserSuite(folderPrefix: string, options: Partial<LaunchOptions> = {}): BrowserSuite {
  const suite = {} as BrowserSuite;
  let folder: ReturnType<typeof makeTempDir> | undefined;
  let closeDevtools: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    suite.pages = await startPageServer();
    folder = makeTempDir(folderPrefix);
    suite.browser = await launchLoopbackBrowser(folder.path, options);
    const devtools = await relayDevtools(suite.browser);
    closeDevtools = devtools.close;
    suite.cdp = await chromium.connectOverCDP(devtools.url);
  }, 60_000);
  afterAll(async () => {
    await suite.cdp?.close().catch(() => {});
    await closeDevtools?.();
    await suite.browser?.stop();
    await suite.pages?.close();
    folder?.remove();
  });
  return suite;
}
