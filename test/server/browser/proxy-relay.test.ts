import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processGroupOf } from '../../../server/browser/processes';
import { openSessionRelay } from '../../../server/browser/proxy-relay';
import type { ProxySettings } from '../../../server/browser/settings';
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
function getThrough(proxyServer: string, url: string): Promise<{ status: number; body: string }> {
  const proxy = new URL(proxyServer);
  return new Promise((resolve, reject) => {
    request({
      host: proxy.hostname,
      port: Number(proxy.port),
      path: url,
      headers: { Host: new URL(url).host },
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

/** Through a session's relay to the SOCKS proxy; the relay serves this test's process group as its browser. */
async function throughRoute(settings: Omit<ProxySettings, 'host' | 'port'>) {
  const route = await openSessionRelay({
    upstream: { ...settings, host: '127.0.0.1', port: socks.port },
    policy: LOOPBACK_ALLOWED,
  });
  await route.serveOnly(processGroupOf(process.pid) as number);
  try {
    expect(route.proxyServer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    return await getThrough(route.proxyServer, `${pages.origin}/`);
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
