// The attacks of the isolation issue, each made by a second account (B) against the first (A) or the host.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { Step } from '../../../lib/api/inputs/automation';
import type { AutomationRun } from '../../../lib/api/schemas/automation';
import type { Session } from '../../../lib/api/schemas/sessions';
import { profileDataDir } from '../../../server/core/data-dir';
import {
  liveProcessesInGroup,
  processesWithUserDataDir,
  startAuthenticatingProxy,
  startPageServer,
} from '../../support/browser-fixtures';
import { apiError, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

/** Follows a run with the long poll until it ends. */
async function finish(api: ApiClient, run: AutomationRun): Promise<AutomationRun> {
  let current = run;
  const deadline = Date.now() + 60_000;
  while (!['succeeded', 'failed', 'cancelled'].includes(current.status) && Date.now() < deadline) {
    current = await api.getRun(run.id, { wait: 10, after_version: current.version });
  }
  return current;
}

async function runOn(api: ApiClient, sessionId: string, steps: Step[]): Promise<AutomationRun> {
  return finish(api, await api.runAutomation({ session_id: sessionId, script: { steps } }));
}

/** The pid of the session's browser process, found by its profile folder. */
function browserPid(service: TestService, profileId: string): number {
  const folder = profileDataDir(service.dataDir, profileId);
  const [pid] = processesWithUserDataDir(folder).filter(
    (candidate) => !readFileSync(`/proc/${candidate}/cmdline`, 'utf8').includes('--type='),
  );
  if (pid === undefined) throw new Error(`no browser runs on ${folder}`);
  return pid;
}

/** TCP ports any process of the group listens on, on any interface, read from the kernel's tables. */
function listeningPortsOfGroup(groupId: number): number[] {
  const inodes = new Set<string>();
  for (const pid of liveProcessesInGroup(groupId)) {
    for (const fd of readdirSync(`/proc/${pid}/fd`, { withFileTypes: false }) as string[]) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (match?.[1]) inodes.add(match[1]);
      } catch {
        // The descriptor closed meanwhile.
      }
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      if (state === '0A' && inode && inodes.has(inode) && local)
        ports.push(Number.parseInt(local.split(':').at(-1) ?? '', 16));
    }
  }
  return ports;
}

/** Opens a DevTools WebSocket; resolves with it once open, or with the HTTP status it was refused with. */
function openDevtools(url: string): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', () => resolve(0));
  });
}

let commandsSent = 0;

/** Sends one DevTools command and resolves with its reply. */
function command(socket: WebSocket, method: string, params: Record<string, unknown> = {}) {
  commandsSent += 1;
  const id = commandsSent;
  return new Promise<{ result?: Record<string, unknown>; error?: { message: string } }>((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString()) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      if (message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, method, params }));
  });
}

/** A GET through an HTTP proxy at 127.0.0.1:`proxyPort`, as any local program could send it. */
function getThroughProxy(proxyPort: number, url: string): Promise<number> {
  return new Promise((resolve) => {
    const sent = request({
      host: '127.0.0.1',
      port: proxyPort,
      path: url,
      headers: { Host: new URL(url).host },
    });
    sent.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    sent.on('error', () => resolve(0));
    sent.end();
  });
}

function relayPortOf(pid: number): number {
  const flag = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
    .split('\0')
    .find((arg) => arg.startsWith('--proxy-server='));
  return Number(flag?.split(':').at(-1));
}

describe('with loopback allowed, as `npm start` runs', () => {
  let service: TestService;
  let a: ApiClient;
  let b: ApiClient;
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  let proxy: Awaited<ReturnType<typeof startAuthenticatingProxy>>;
  let sessionA: Session;
  let profileA: string;

  beforeAll(async () => {
    [service, pages, proxy] = await Promise.all([
      startServiceInProcess({ env: { EGRESS_ALLOW: 'loopback' } }),
      startPageServer(),
      startAuthenticatingProxy('alice', 'A-paid-secret'),
    ]);
    a = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
    b = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
    const profile = await a.createProfile({
      name: 'A with a paid proxy',
      proxy: `http://alice:A-paid-secret@127.0.0.1:${proxy.port}`,
    });
    profileA = profile.id;
    sessionA = await a.startSession({ profile_id: profile.id, headless: true });
  });

  afterAll(async () => {
    await service?.close();
    await Promise.all([pages?.close(), proxy?.close()]);
  });

  it("gives A's browser no DevTools port on any interface, so no page or program can find one", () => {
    const pid = browserPid(service, profileA);
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('--remote-debugging-pipe');
    expect(listeningPortsOfGroup(pid)).toEqual([]);
  });

  it("does not let B's DevTools address open A's session, nor a stopped session's address open anything", async () => {
    const profile = await b.createProfile({ name: 'B' });
    const sessionB = await b.startSession({ profile_id: profile.id, headless: true });
    const addressB = sessionB.cdp_url as string;
    const forged = addressB.replace(sessionB.id, sessionA.id);
    expect(forged).not.toBe(addressB);
    expect(await openDevtools(forged)).toBe(404);
    const own = await openDevtools(addressB);
    expect(own).toBeInstanceOf(WebSocket);
    (own as WebSocket).close();

    await b.stopSession({ session_id: sessionB.id });
    expect(await openDevtools(addressB)).toBe(404);
  });

  it('refuses DevTools commands that read the service machine’s files', async () => {
    const profile = await b.createProfile({ name: 'B reads files' });
    const session = await b.startSession({ profile_id: profile.id, headless: true });
    const socket = (await openDevtools(session.cdp_url as string)) as WebSocket;
    try {
      const dataDir = `file://${service.dataDir}/`;
      const opened = await command(socket, 'Target.createTarget', { url: dataDir });
      expect(opened.error?.message).toMatch(/may not open file: addresses/);
      const exposed = await command(socket, 'Target.exposeDevToolsProtocol', { targetId: 'x' });
      expect(exposed.error?.message).toMatch(/not available on this service/);

      const upload = await command(socket, 'DOM.setFileInputFiles', { files: ['/etc/passwd'], nodeId: 1 });
      expect(upload.error?.message).toMatch(/not available on this service/);

      // A context with a proxy of its own would connect to it directly, around the relay and the egress policy.
      const around = await command(socket, 'Target.createBrowserContext', {
        proxyServer: 'http://127.0.0.1:9',
      });
      expect(around.error?.message).toMatch(/may not set a proxy on this service/);

      const cdp = await chromium.connectOverCDP(session.cdp_url as string);
      const page = await cdp.contexts()[0]?.newPage();
      await expect(page?.goto(dataDir) ?? Promise.resolve()).rejects.toThrow(/may not open file: addresses/);
      await cdp.close();
    } finally {
      socket.close();
      await b.stopSession({ session_id: session.id });
    }
  });

  it("does not let a local program or B's browser use A's proxy relay and its credentials", async () => {
    const relayPort = relayPortOf(browserPid(service, profileA));
    // A's browser sends its own background requests through the proxy too: count only those for the page.
    const pageFetches = () =>
      proxy.seen.filter((seen) => seen.authorized && seen.url.startsWith(pages.origin)).length;
    const authorizedBefore = pageFetches();

    expect(await getThroughProxy(relayPort, `${pages.origin}/`)).toBe(403);

    const profile = await b.createProfile({ name: "B on A's relay", proxy: `http://127.0.0.1:${relayPort}` });
    const session = await b.startSession({ profile_id: profile.id, headless: true });
    const run = await runOn(b, session.id, [
      { action: 'goto', url: `${pages.origin}/` },
      { action: 'evaluate', expression: 'document.body.innerText', name: 'text' },
    ]);
    await b.stopSession({ session_id: session.id });
    expect(run.output.text).not.toContain('hello');
    expect(pageFetches()).toBe(authorizedBefore);

    // A's own browser still gets through its relay: the refusals above are not a broken relay.
    const own = await runOn(a, sessionA.id, [
      { action: 'goto', url: `${pages.origin}/` },
      { action: 'extract', selector: 'p', name: 'text' },
    ]);
    expect(own).toMatchObject({ status: 'succeeded', output: { text: 'hello' } });
    expect(pageFetches()).toBeGreaterThan(authorizedBefore);
  });
});

describe('with only one test range allowed (the default allows none)', () => {
  let service: TestService;
  let api: ApiClient;
  let allowed: Server;
  let allowedOrigin: string;
  let forbidden: Server;
  let forbiddenPort: number;
  const forbiddenHits: string[] = [];
  const allowedHits: string[] = [];

  beforeAll(async () => {
    // 127.0.0.3 stands in for a public site; everything else on loopback stands in for the forbidden targets.
    allowed = createServer((req, res) => {
      allowedHits.push(req.url ?? '');
      if (req.url?.startsWith('/redirect')) {
        res.writeHead(302, { Location: `http://127.0.0.1:${forbiddenPort}/after-redirect` }).end();
        return;
      }
      res.setHeader('Content-Type', 'text/html').end('<p>public</p>');
    });
    await new Promise<void>((resolve) => allowed.listen(0, '127.0.0.3', resolve));
    allowedOrigin = `http://127.0.0.3:${(allowed.address() as AddressInfo).port}`;
    forbidden = createServer((req, res) => {
      forbiddenHits.push(`${req.headers.host}${req.url}`);
      res.end('internal secrets');
    });
    await new Promise<void>((resolve) => forbidden.listen({ port: 0, host: '::', ipv6Only: false }, resolve));
    forbiddenPort = (forbidden.address() as AddressInfo).port;
    service = await startServiceInProcess({ env: { EGRESS_ALLOW: '127.0.0.3/32' } });
    api = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
  });

  afterAll(async () => {
    await service?.close();
    for (const server of [allowed, forbidden]) {
      server?.closeAllConnections();
      server?.close();
    }
  });

  it('reaches no loopback, private, link-local or metadata address in any spelling, by goto, fetch or redirect', async () => {
    const p = forbiddenPort;
    const spellings = [
      `http://127.0.0.1:${p}/dotted`,
      `http://localhost:${p}/name`,
      `http://2130706433:${p}/decimal`,
      `http://0x7f000001:${p}/hex`,
      `http://0177.0.0.1:${p}/octal`,
      `http://127.1:${p}/short`,
      `http://127.0.0.2:${p}/alias`,
      `http://0.0.0.0:${p}/any`,
      `http://[::1]:${p}/ipv6`,
      `http://[::ffff:127.0.0.1]:${p}/mapped`,
      `http://[::ffff:7f00:1]:${p}/mapped-hex`,
      `http://169.254.169.254/latest/meta-data/`,
      `http://[fd00:ec2::254]/latest/meta-data/`,
      `http://metadata.google.internal/computeMetadata/v1/`,
    ];
    const profile = await api.createProfile({ name: 'Egress' });
    const session = await api.startSession({ profile_id: profile.id, headless: true });
    const probe = `Promise.all(${JSON.stringify(spellings)}.map((url) =>
      fetch(url, { mode: 'no-cors' }).then(() => 'answered', () => 'failed')))`;
    const run = await runOn(api, session.id, [
      { action: 'goto', url: `${allowedOrigin}/` },
      { action: 'evaluate', expression: probe, name: 'fetches' },
      { action: 'goto', url: `${allowedOrigin}/redirect` },
      { action: 'goto', url: `http://0x7f000001:${p}/goto` },
    ]);
    await api.stopSession({ session_id: session.id });

    expect(run.steps[0]?.status).toBe('succeeded');
    expect(allowedHits).toEqual(expect.arrayContaining(['/', '/redirect']));
    expect(forbiddenHits).toEqual([]);
    const refused = service.logs.filter((line) => line.includes('"egress refused"')).join('\n');
    for (const host of ['127.0.0.1', 'localhost', '169.254.169.254', 'fd00:ec2::254', '::1'])
      expect(refused).toContain(host);
  });

  it('refuses a profile proxy at a forbidden address: its credentials never leave', async () => {
    const proxy = await startAuthenticatingProxy('carol', 'secret');
    try {
      const profile = await api.createProfile({
        name: 'Proxy on loopback',
        proxy: `http://carol:secret@127.0.0.1:${proxy.port}`,
      });
      const refused = await apiError(api.startSession({ profile_id: profile.id, headless: true }));
      expect(refused.status).toBe(422);
      expect(refused.detail).toContain('EGRESS_ALLOW');
      expect((await api.listSessions({ status: 'running' })).data).toEqual([]);
      expect(proxy.seen).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});

describe('limits', () => {
  let service: TestService;
  let free: ApiClient;
  let enterprise: ApiClient;
  const held: WebSocket[] = [];

  beforeAll(async () => {
    service = await startServiceInProcess({
      env: {
        MAX_BROWSERS: '3',
        SESSION_IDLE_TIMEOUT: '6',
        MAX_STEP_OUTPUT_BYTES: '1000',
        MAX_RUN_OUTPUT_BYTES: '1500',
        MAX_ARTIFACT_BYTES: '1000',
      },
    });
    free = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('free'), fetch });
    enterprise = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('enterprise'),
      fetch,
    });
  });

  afterAll(async () => {
    for (const socket of held) socket.close();
    await service?.close();
  });

  /** Starts a session and keeps a DevTools client on it, so that it is in use and not stopped as idle. */
  async function startHeld(api: ApiClient, name: string): Promise<Session> {
    const profile = await api.createProfile({ name });
    const session = await api.startSession({ profile_id: profile.id, headless: true });
    held.push((await openDevtools(session.cdp_url as string)) as WebSocket);
    return session;
  }

  it('caps sessions per plan, then per machine, each with a sentence', async () => {
    await startHeld(free, 'Free 1');
    await startHeld(free, 'Free 2');
    const third = await free.createProfile({ name: 'Free 3' });
    const overPlan = await apiError(free.startSession({ profile_id: third.id, headless: true }));
    expect(overPlan).toMatchObject({ status: 429, code: 'session_limit' });
    expect(overPlan.detail).toBe('Your free plan allows 2 sessions at once; stop one to start another.');

    await startHeld(enterprise, 'Enterprise 1');
    const more = await enterprise.createProfile({ name: 'Enterprise 2' });
    const overMachine = await apiError(enterprise.startSession({ profile_id: more.id, headless: true }));
    expect(overMachine).toMatchObject({ status: 503, code: 'at_capacity', retryAfter: 60 });
    expect(overMachine.detail).toMatch(/as many browsers as its machines can hold \(3 on this one/);
  });

  it('stops a session no client uses after the idle timeout, and keeps the ones in use', async () => {
    const [inUse] = (await enterprise.listSessions({ status: 'running' })).data;
    held[held.length - 1]?.close();
    await expect
      .poll(async () => (await enterprise.getSession(inUse?.id as string)).stop_reason, { timeout: 30_000 })
      .toBe('idle');
    const stillHeld = (await free.listSessions({ status: 'running' })).data;
    expect(stillHeld).toHaveLength(2);
  });

  it('fails a step, a run or a screenshot over its size limit with a sentence naming the limit', async () => {
    const profile = await enterprise.createProfile({ name: 'Outputs' });
    const session = await enterprise.startSession({ profile_id: profile.id, headless: true });
    const big = await runOn(enterprise, session.id, [
      { action: 'evaluate', expression: "'x'.repeat(50000)", name: 'big' },
    ]);
    expect(big.status).toBe('failed');
    expect(big.error).toBe(
      "Step 1 (evaluate ''x'.repeat(50000)') failed: its result is 48.8 KB of JSON, over the limit of 1000 bytes per step.",
    );
    expect(big.output).toEqual({});

    const many = await runOn(enterprise, session.id, [
      { action: 'evaluate', expression: "'a'.repeat(800)", name: 'first' },
      { action: 'evaluate', expression: "'b'.repeat(800)", name: 'second' },
    ]);
    expect(many.status).toBe('failed');
    expect(many.error).toMatch(/^Step 2 .* over the limit of 1.5 KB per run\.$/);
    expect(Object.keys(many.output)).toEqual(['first']);

    const shot = await runOn(enterprise, session.id, [{ action: 'screenshot', name: 'page' }]);
    expect(shot.status).toBe('failed');
    expect(shot.error).toMatch(/could not be stored \(it is .*, over the limit of 1000 bytes per artifact\)/);
    await enterprise.stopSession({ session_id: session.id });
  });
});
