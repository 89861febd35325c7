import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../lib/api/client';
import { backoffDelay } from '../../../lib/api/retry';
import { jsonResponse, networkFailure, problemResponse, type Scripted } from './fake-fetch';
import { profile, proxy } from './fixtures';
import { failure, harness } from './harness';

const proxyBody = { name: 'Office', scheme: 'http', host: 'h', port: 8080 } as const;
const calls: [string, (api: ApiClient) => Promise<unknown>, () => Response][] = [
  ['GET', (api) => api.getProfile('prf_1'), () => jsonResponse(profile)],
  ['PUT', (api) => api.updateProxy('prx_1', proxyBody), () => jsonResponse(proxy)],
  ['DELETE', (api) => api.deleteProxy('prx_1'), () => new Response(null, { status: 204 })],
  ['POST', (api) => api.createProfile({ name: 'Shop' }), () => jsonResponse(profile, 201)],
];
const transient: [string, () => Scripted][] = [
  ['502', () => new Response('Bad Gateway', { status: 502 })],
  ['503', () => problemResponse(503, { code: 'internal', detail: 'Shutting down' })],
  ['504', () => new Response('Gateway Timeout', { status: 504 })],
  ['a network error', networkFailure],
];

describe('retries', () => {
  const matrix = calls.flatMap(([method, invoke, success]) =>
    transient.map(([what, fail]) => [method, what, invoke, success, fail] as const),
  );

  it.each(matrix)('%s is retried after %s', async (method, _, invoke, success, fail) => {
    const { api, requests, sleeps } = harness([fail(), success()]);
    await invoke(api);
    expect(requests).toHaveLength(2);
    expect(requests.map((r) => r.method)).toEqual([method, method]);
    expect(requests[1]?.body).toBe(requests[0]?.body);
    expect(requests[1]?.headers['idempotency-key']).toBe(requests[0]?.headers['idempotency-key']);
    expect(sleeps).toHaveLength(1);
  });

  it('a POST keeps its Idempotency-Key over all three attempts', async () => {
    const { api, requests } = harness([
      networkFailure(),
      new Response('', { status: 503 }),
      jsonResponse(profile, 201),
    ]);
    await expect(api.createProfile({ name: 'Shop' })).resolves.toEqual(profile);
    const keys = requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBeTruthy();
  });

  it('503 twice, then success: three attempts, the answer of the last', async () => {
    const { api, requests, sleeps } = harness([
      new Response('', { status: 503 }),
      new Response('', { status: 503 }),
      jsonResponse(profile),
    ]);
    await expect(api.getProfile('prf_1')).resolves.toEqual(profile);
    expect(requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('gives up after three attempts with the last failure', async () => {
    const { api, requests } = harness([
      new Response('', { status: 503 }),
      new Response('', { status: 502 }),
      new Response('', { status: 504 }),
      jsonResponse(profile),
    ]);
    const error = await failure(api.getProfile('prf_1'));
    expect(error.status).toBe(504);
    expect(requests).toHaveLength(3);
  });

  it.each([
    [400, 'malformed_json'],
    [404, 'not_found'],
    [409, 'conflict'],
    [422, 'validation_failed'],
    [429, 'rate_limited'],
    [500, 'internal'],
    [503, 'browser_unavailable'],
  ])('%i %s is not retried', async (status, code) => {
    const { api, requests, sleeps } = harness([problemResponse(status, { code }), jsonResponse(profile)]);
    const error = await failure(api.getProfile('prf_1'));
    expect(error).toMatchObject({ status, code });
    expect(requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe('backoff', () => {
  it.each([
    [0, [150, 300]],
    [0.5, [225, 450]],
    [1, [300, 600]],
  ])('with random() = %d the waits are %j', async (random, expected) => {
    const { api, sleeps } = harness([networkFailure(), networkFailure(), networkFailure()], {
      random: () => random,
    });
    await failure(api.getAccount());
    expect(sleeps).toEqual(expected);
  });

  it('doubles per retry, jittered between half and all, and never passes the 3 s cap', () => {
    for (let retry = 0; retry < 12; retry++) {
      const ceiling = Math.min(3000, 300 * 2 ** retry);
      expect(backoffDelay(retry, () => 0)).toBe(ceiling / 2);
      expect(backoffDelay(retry, () => 0.999999)).toBeLessThanOrEqual(ceiling);
      expect(backoffDelay(retry, () => 0.999999)).toBeGreaterThan(ceiling * 0.99);
    }
    expect(backoffDelay(20, () => 1)).toBe(3000);
  });
});
