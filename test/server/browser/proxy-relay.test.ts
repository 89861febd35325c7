import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSessionRelay } from '../../../server/browser/proxy-relay';
import type { ProxySettings } from '../../../server/browser/settings';
import { processGroupOf } from '../../../server/core/processes';
import { LOOPBACK_ALLOWED, startPageServer } from '../../support/browser-fixtures';
import { startSocksServer } from '../../support/socks-server';

/* SOCKS proxies with credentials reach Chromium through the local relay: traffic gets to the target through
   the SOCKS server, which checked the credentials. */

let socks: Awaited<ReturnType<typeof startSocksServer>>;
let pages: Awaited<ReturnType<typeof startPageServer>>;

beforeAll(async () => {
  [socks, pages] = await Promise.all([
    startSocksServer({ username: 'pilot', password: 's3cret' }),
    startPageServer(),
  ]);
});
afterAll(() => Promise.all([socks?.close(), pages?.close()]));

/** GET `url` through an HTTP proxy (as Chromium uses the relay's --proxy-server): its status and body. */
function getThrough(
  proxyServer: string,
  url: string,
  authorization?: string,
): Promise<{ status: number; body: string }> {
  const proxy = new URL(proxyServer);
  return new Promise((resolve, reject) => {
    request({
      host: proxy.hostname,
      port: Number(proxy.port),
      path: url,
      headers: {
        Host: new URL(url).host,
        ...(authorization ? { 'Proxy-Authorization': authorization } : {}),
      },
    })
      .on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on('error', reject)
      .end();
  });
}

/** Through a session's relay to the SOCKS proxy, presenting the relay's secret as its browser does. */
async function throughRoute(settings: Omit<ProxySettings, 'host' | 'port'>) {
  const route = await openSessionRelay({
    upstream: { ...settings, host: '127.0.0.1', port: socks.port },
    policy: LOOPBACK_ALLOWED,
  });
  try {
    expect(route.proxyServer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    return await getThrough(route.proxyServer, `${pages.origin}/`, route.authorization);
  } finally {
    await route.close();
  }
}

describe('the proxy relay to a SOCKS proxy with credentials', () => {
  it.each([
    ['socks5', { scheme: 'socks5', username: 'pilot', password: 's3cret' }, 's3cret'],
    ['socks4', { scheme: 'socks4', username: 'pilot', password: null }, null],
  ] as const)(
    'carries %s traffic to the target with the user’s credentials',
    async (_, settings, password) => {
      socks.requests.length = 0;
      const served = pages.requests.length;
      const answer = await throughRoute(settings);
      expect(answer).toMatchObject({ status: 200, body: expect.stringContaining('hello') });
      expect(socks.requests).toEqual([
        {
          version: settings.scheme === 'socks5' ? 5 : 4,
          username: 'pilot',
          password,
          target: new URL(pages.origin).host,
          accepted: true,
        },
      ]);
      expect(pages.requests.length).toBe(served + 1);
    },
  );

  it('gets nowhere with a wrong password: the SOCKS server refuses it and the target sees nothing', async () => {
    socks.requests.length = 0;
    const served = pages.requests.length;
    const answer = await throughRoute({ scheme: 'socks5', username: 'pilot', password: 'wrong' });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(socks.requests.map((seen) => seen.accepted)).not.toContain(true);
    expect(pages.requests.length).toBe(served);
  });
});

describe('who a session’s relay serves', () => {
  const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

  it('serves only a caller presenting its secret: a program with none or a wrong one is refused, another relay’s secret too', async () => {
    const open = () => openSessionRelay({ upstream: null, policy: LOOPBACK_ALLOWED });
    const [route, other] = await Promise.all([open(), open()]);
    try {
      // Its browser is some other process group: this process is any local program.
      await route.challenge(processGroupOf(process.pid) === 1 ? 2 : 1);
      const served = pages.requests.length;
      const { username, password } = route.credentials;
      for (const authorization of [
        undefined,
        basic(`${username}:wrong`),
        basic(`${username}:${password.slice(0, -1)}`),
        basic(`other:${password}`),
        other.authorization,
      ])
        expect((await getThrough(route.proxyServer, `${pages.origin}/`, authorization)).status).toBe(403);
      expect(pages.requests.length).toBe(served);
      expect(await getThrough(route.proxyServer, `${pages.origin}/`, route.authorization)).toMatchObject({
        status: 200,
        body: expect.stringContaining('hello'),
      });
    } finally {
      await Promise.all([route.close(), other.close()]);
    }
  });

  it('asks its own browser for the secret (407) instead of refusing it, and serves it nothing without', async () => {
    const route = await openSessionRelay({ upstream: null, policy: LOOPBACK_ALLOWED });
    try {
      // This test's process group stands in for the session's browser.
      await route.challenge(processGroupOf(process.pid) as number);
      const served = pages.requests.length;
      expect((await getThrough(route.proxyServer, `${pages.origin}/`)).status).toBe(407);
      expect((await getThrough(route.proxyServer, `${pages.origin}/`, basic('session:wrong'))).status).toBe(
        407,
      );
      expect(pages.requests.length).toBe(served);
      expect((await getThrough(route.proxyServer, `${pages.origin}/`, route.authorization)).status).toBe(200);
    } finally {
      await route.close();
    }
  });
});

describe('where relays run', () => {
  /** A thread's niceness (the 19th field of its stat, after the command's parenthesis). */
  const niceness = (task: string | number) => {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  };
  /** This process's threads by niceness, the main one (whose id is the process's) first. */
  const threadNiceness = () => [
    niceness(process.pid),
    ...readdirSync('/proc/self/task')
      .filter((task) => Number(task) !== process.pid)
      .map(niceness),
  ];

  it('moves sessions’ bytes on a thread below the priority of the one that answers the API', async () => {
    const route = await openSessionRelay({ upstream: null, policy: LOOPBACK_ALLOWED });
    try {
      expect(threadNiceness()[0]).toBe(0);
      expect(threadNiceness().filter((niceness) => niceness > 0).length).toBeGreaterThanOrEqual(1);
    } finally {
      await route.close();
    }
  });
});
