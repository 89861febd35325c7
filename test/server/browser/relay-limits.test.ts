import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayLimits } from '../../../server/browser/relay-limits';
import { RELAY_USERNAME, type RelayServer, startRelayServer } from '../../../server/browser/relay-server';
import { browserSuite, LOOPBACK_ALLOWED, relayPortOf } from '../../support/browser-fixtures';

/* The attack: from anywhere on loopback, connections to a session's relay that never present its secret, idle
   or sending their head a byte at a time, each holding a descriptor of the service. They are closed within the
   head limit, no more than the cap of them are open at once, and the session's browser goes on loading pages. */

const LIMITS: RelayLimits = { headMs: 2_000, idleMs: 3_000, unproven: 8 };
const SECRET = 'the-relay-secret';
const AUTHORIZATION = `Proxy-Authorization: Basic ${Buffer.from(`${RELAY_USERNAME}:${SECRET}`).toString('base64')}`;

let site: Server;
let siteHost: string;

beforeAll(async () => {
  site = createServer((_request, response) => response.end('answer'));
  site.listen(0, '127.0.0.1');
  await once(site, 'listening');
  siteHost = `127.0.0.1:${(site.address() as AddressInfo).port}`;
});

afterAll(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

interface Held {
  socket: Socket;
  /** When the relay closed it, in ms after the test's start; null while open. */
  closedAt: number | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` connections to the relay that send nothing (or what `feed` writes), each noting when it closed. */
async function hold(port: number, count: number, started: number, feed?: (socket: Socket) => void) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const held: Held = { socket: connect(port, '127.0.0.1'), closedAt: null };
      held.socket.on('error', () => {});
      held.socket.once('close', () => {
        held.closedAt = performance.now() - started;
      });
      await once(held.socket, 'connect');
      feed?.(held.socket);
      return held;
    }),
  );
}

const open = (connections: Held[]) => connections.filter(({ closedAt }) => closedAt === null).length;

async function allClosed(connections: Held[], withinMs: number): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (open(connections) > 0 && performance.now() < deadline) await sleep(50);
}

/** A head sent a byte every 50 ms, never ended: it moves all the time, so only the head limit cuts it. */
function trickle(socket: Socket): void {
  const head = Buffer.from(
    `GET http://${siteHost}/ HTTP/1.1\r\nHost: ${siteHost}\r\n${'X-Slow: a\r\n'.repeat(50)}`,
  );
  let sent = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || sent >= head.length) return clearInterval(timer);
    socket.write(head.subarray(sent, ++sent));
  }, 50);
  socket.once('close', () => clearInterval(timer));
}

/** A request through the relay with its secret; resolves with the answer's status and body. */
function throughRelay(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const [name, value] = AUTHORIZATION.split(': ') as [string, string];
    request({
      host: '127.0.0.1',
      port,
      path: `http://${siteHost}/`,
      headers: { [name]: value, Host: siteHost },
    })
      .on('response', (answer) => {
        let body = '';
        answer.on('data', (chunk) => {
          body += chunk;
        });
        answer.on('end', () => resolve(`${answer.statusCode} ${body}`));
      })
      .on('error', reject)
      .end();
  });
}

async function withRelay(test: (relay: RelayServer) => Promise<void>): Promise<void> {
  const relay = await startRelayServer({
    upstream: null,
    policy: LOOPBACK_ALLOWED,
    secret: SECRET,
    onRefused: async () => {},
    limits: LIMITS,
  });
  try {
    await test(relay);
  } finally {
    await relay.close();
  }
}

describe('a relay’s connections without its secret', () => {
  it('are closed within the head limit, idle or trickling, and never more than the cap are open', () =>
    withRelay(async (relay) => {
      const started = performance.now();
      const idle = await hold(relay.port, 3 * LIMITS.unproven, started);
      const trickling = await hold(relay.port, LIMITS.unproven, started, trickle);
      const all = [...idle, ...trickling];
      // The oldest give way to the newest: every idle one, as the trickling ones came after them.
      const deadline = performance.now() + LIMITS.headMs / 2;
      while (open(idle) > 0 && performance.now() < deadline) await sleep(20);
      expect(open(idle)).toBe(0);
      expect(open(trickling)).toBe(LIMITS.unproven);
      await allClosed(all, 5 * LIMITS.headMs);
      expect(open(all)).toBe(0);
      const lastClosed = Math.max(...trickling.map(({ closedAt }) => closedAt ?? Number.POSITIVE_INFINITY));
      const firstTrickleClosed = Math.min(...trickling.map(({ closedAt }) => closedAt ?? 0));
      // Cut by the head limit while still sending: not before it, and well within a few of it.
      expect(firstTrickleClosed).toBeGreaterThanOrEqual(0.8 * LIMITS.headMs);
      expect(lastClosed).toBeLessThan(4 * LIMITS.headMs);
    }));

  it(
    'leave room for a caller with the secret, whose connection then waits for the idle limit, not the head one',
    () =>
      withRelay(async (relay) => {
        const started = performance.now();
        const attack = await hold(relay.port, 2 * LIMITS.unproven, started);
        const served = connect(relay.port, '127.0.0.1');
        let servedClosedAt: number | null = null;
        served.once('close', () => {
          servedClosedAt = performance.now() - started;
        });
        await once(served, 'connect');
        served.write(`GET http://${siteHost}/ HTTP/1.1\r\nHost: ${siteHost}\r\n${AUTHORIZATION}\r\n\r\n`);
        const [answer] = (await once(served, 'data')) as [Buffer];
        expect(answer.toString()).toMatch(/^HTTP\/1\.1 200 [\s\S]*answer$/);
        expect(await throughRelay(relay.port)).toBe('200 answer');
        await allClosed(attack, 5 * LIMITS.headMs);
        expect(open(attack)).toBe(0);
        expect(servedClosedAt).toBeNull();
        const deadline = performance.now() + 5 * LIMITS.idleMs;
        while (servedClosedAt === null && performance.now() < deadline) await sleep(50);
        expect(servedClosedAt).toBeGreaterThanOrEqual(0.8 * LIMITS.idleMs);
        expect(servedClosedAt).toBeLessThan(4 * LIMITS.idleMs);
      }),
    30_000,
  );
});

describe('a session under that attack', () => {
  const session = browserSuite('relay-limits-', { relayLimits: LIMITS });

  it('keeps loading pages, each in a new context (new connections, a challenge each), while the cap is kept full', async () => {
    const started = performance.now();
    const attack: Held[] = [];
    let attacking = true;
    const flood = (async () => {
      while (attacking) {
        attack.push(...(await hold(relayPortOf(session.browser), LIMITS.unproven, started)));
        await sleep(100);
      }
    })();
    try {
      for (let round = 0; round < 3; round++) {
        const context = await session.cdp.newContext();
        const page = await context.newPage();
        await page.goto(`${session.pages.origin}/?round=${round}`);
        expect(await page.textContent('p')).toBe('hello');
        await context.close();
      }
    } finally {
      attacking = false;
      await flood;
    }
    expect(attack.length).toBeGreaterThan(3 * LIMITS.unproven);
    await allClosed(attack, 5 * LIMITS.headMs);
    expect(open(attack)).toBe(0);
  }, 60_000);
});
