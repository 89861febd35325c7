import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import type { QuotaSnapshot } from '../../../lib/api/rate-limit';
import { account } from './fixtures';
import { failure } from './harness';

// Node's own fetch against a loopback server: the abort signal, headers and bodies as a runtime handles them.
let server: Server;
let baseUrl: string;
const seen: { method?: string; url?: string; headers: Record<string, unknown> }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers });
    if (request.url === '/v1/sessions/ses_1') return; // never answers
    response.writeHead(200, {
      'Content-Type': 'application/json',
      'RateLimit-Policy': '"hourly";q=100;w=3600',
      RateLimit: '"hourly";r=99;t=3600',
    });
    response.end(JSON.stringify(account));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

it('talks to a real server through the runtime’s fetch', async () => {
  const quotas: QuotaSnapshot[] = [];
  const api = createClient({ baseUrl, apiKey: 'pk_real', fetch, onQuota: (q) => quotas.push(q) });
  await expect(api.getAccount()).resolves.toEqual(account);
  expect(seen.at(-1)).toMatchObject({
    method: 'GET',
    url: '/v1/account',
    headers: { authorization: 'Bearer pk_real', accept: 'application/json' },
  });
  expect(quotas[0]).toMatchObject({ limit: 100, remaining: 99, resetSeconds: 3600 });
});

it('times out a request the server never answers', async () => {
  const api = createClient({ baseUrl, apiKey: 'k', fetch, timeoutMs: 100 });
  const error = await failure(api.getSession('ses_1'));
  expect(error.code).toBe('timeout');
});

it('reports a closed port as unreachable after retrying', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
  const sleeps: number[] = [];
  const api = createClient({ baseUrl: url, apiKey: 'k', fetch, sleep: async (ms) => void sleeps.push(ms) });
  const error = await failure(api.getAccount());
  expect(error.code).toBe('network_error');
  expect(error.userMessage).toBe(`The service at ${url} cannot be reached. Is it running?`);
  expect(sleeps).toHaveLength(2);
});
