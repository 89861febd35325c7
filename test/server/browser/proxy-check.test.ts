import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { startAuthenticatingProxy } from '../../support/browser-fixtures';
import { apiError, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import { startSocksServer } from '../../support/socks-server';

let checkAddress: Server;
let proxy: Awaited<ReturnType<typeof startAuthenticatingProxy>>;
const services: TestService[] = [];
let checkUrl: string;

async function serviceWith(env: Record<string, string>): Promise<{ service: TestService; api: ApiClient }> {
  const service = await startServiceInProcess({ env: { PROXY_CHECK_URL: checkUrl, ...env } });
  services.push(service);
  return {
    service,
    api: createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('free'), fetch }),
  };
}

beforeAll(async () => {
  // As ipinfo.io answers: the caller's IP and its time zone.
  checkAddress = createServer((_request, response) =>
    response
      .setHeader('Content-Type', 'application/json')
      .end('{"ip":"203.0.113.7","timezone":"Europe/Berlin"}'),
  );
  await new Promise<void>((resolve) => checkAddress.listen(0, '127.0.0.1', resolve));
  checkUrl = `http://127.0.0.1:${(checkAddress.address() as AddressInfo).port}/json`;
  proxy = await startAuthenticatingProxy('carol', 'right-pass');
});

afterAll(async () => {
  for (const service of services) {
    await service.close();
    await rm(service.dataDir, { recursive: true, force: true });
  }
  await proxy?.close();
  await new Promise((resolve) => checkAddress?.close(resolve));
});

describe('POST /v1/proxies/:id/check', () => {
  it('answers the exit IP, time zone and time through a working proxy, and why a broken one fails', async () => {
    const { service, api } = await serviceWith({ EGRESS_ALLOW: 'loopback' });
    const saved = (password: string, port = proxy.port) =>
      api.createProxy({
        name: `P ${password}`,
        scheme: 'http',
        host: '127.0.0.1',
        port,
        username: 'carol',
        password,
      });

    const works = await api.checkProxy((await saved('right-pass')).id);
    expect(works).toMatchObject({ ok: true, ip: '203.0.113.7', timezone: 'Europe/Berlin' });
    expect(works.took_ms).toBeGreaterThanOrEqual(0);
    expect(proxy.seen.at(-1)).toEqual({ url: checkUrl, authorized: true });

    expect(await api.checkProxy((await saved('wrong-pass')).id)).toMatchObject({
      ok: false,
      reason: 'The proxy refused its user name or password (407).',
    });

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await api.checkProxy((await saved('right-pass', closedPort)).id)).toMatchObject({
      ok: false,
      reason: 'The proxy refused the connection: check its host and port.',
    });

    const mine = await saved('right-pass');
    const stranger = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('free'),
      fetch,
    });
    expect((await apiError(stranger.checkProxy(mine.id))).status).toBe(404);
  });

  it('says the same sentence for each kind of failure whatever the scheme', async () => {
    const { api } = await serviceWith({ EGRESS_ALLOW: 'loopback' });
    const socks = await startSocksServer({ username: 'carol', password: 'right-pass' });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const reasonOf = async (
      scheme: 'http' | 'https' | 'socks4' | 'socks5' | 'socks5h',
      port: number,
      password?: string,
    ) => {
      const saved = await api.createProxy({
        scheme,
        host: '127.0.0.1',
        port,
        username: 'carol',
        ...(password ? { password } : {}),
      });
      const check = await api.checkProxy(saved.id);
      return check.ok ? 'ok' : check.reason;
    };
    try {
      for (const scheme of ['http', 'https', 'socks4', 'socks5', 'socks5h'] as const)
        expect([scheme, await reasonOf(scheme, closedPort)]).toEqual([
          scheme,
          'The proxy refused the connection: check its host and port.',
        ]);
      expect(await reasonOf('http', proxy.port, 'wrong-pass')).toBe(
        'The proxy refused its user name or password (407).',
      );
      for (const scheme of ['socks5', 'socks5h'] as const)
        expect([scheme, await reasonOf(scheme, socks.port, 'wrong-pass')]).toEqual([
          scheme,
          'The proxy refused its user name or password (407).',
        ]);
    } finally {
      await socks.close();
    }
  });

  it('keeps to the egress policy: a proxy on the service’s own machine is refused unless the operator allows it', async () => {
    const { api } = await serviceWith({});
    const local = await api.createProxy({
      name: 'Local',
      scheme: 'http',
      host: '127.0.0.1',
      port: proxy.port,
      username: 'carol',
      password: 'right-pass',
    });
    const seenBefore = proxy.seen.length;
    const refused = await api.checkProxy(local.id);
    expect(refused).toMatchObject({ ok: false });
    expect(!refused.ok && refused.reason).toMatch(
      /^127\.0\.0\.1 is in the loopback range 127\.0\.0\.0\/8, which sessions may not reach on this service; its operator can allow ranges with EGRESS_ALLOW\.$/,
    );
    expect(proxy.seen.length).toBe(seenBefore);
  });

  it('says the policy’s sentence, not the relay’s 403, when the check address is reached over HTTPS', async () => {
    const { api } = await serviceWith({ PROXY_CHECK_URL: 'https://check.example/json' });
    const local = await api.createProxy({
      name: 'Local',
      scheme: 'http',
      host: '127.0.0.1',
      port: proxy.port,
    });
    const refused = await api.checkProxy(local.id);
    expect(!refused.ok && refused.reason).toBe(
      '127.0.0.1 is in the loopback range 127.0.0.0/8, which sessions may not reach on this service; its operator can allow ranges with EGRESS_ALLOW.',
    );
  });

  it('says checks are off when the operator set no PROXY_CHECK_URL', async () => {
    const { api } = await serviceWith({ PROXY_CHECK_URL: '' });
    const saved = await api.createProxy({ name: 'Any', scheme: 'http', host: 'proxy.example', port: 8080 });
    const error = await apiError(api.checkProxy(saved.id));
    expect([error.status, error.code]).toEqual([503, 'proxy_check_off']);
  });
});
