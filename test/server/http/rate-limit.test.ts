import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_FAILURES_PER_MINUTE } from '../../../server/http/auth';
import {
  createDataDir,
  requester,
  type ServiceHandle,
  startService,
  type TestService,
} from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;

beforeAll(async () => {
  service = await startServiceInProcess();
});
afterAll(() => service?.close());

describe('the hourly limit of the plan', () => {
  it('gives exactly 100 of 150 concurrent requests on a free key, with correct headers', async () => {
    const request = requester(service.baseUrl, await service.createKey('free'));
    const responses = await Promise.all(Array.from({ length: 150 }, () => request('GET', '/v1/profiles')));
    const ok = responses.filter((response) => response.status === 200);
    const limited = responses.filter((response) => response.status === 429);
    expect(ok).toHaveLength(100);
    expect(limited).toHaveLength(50);

    const remaining = ok
      .map((response) => Number(response.headers.get('x-ratelimit-remaining')))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => i));
    for (const response of ok) {
      expect(response.headers.get('ratelimit-policy')).toBe('"hourly";q=100;w=3600');
      expect(response.headers.get('x-ratelimit-limit')).toBe('100');
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(3500);
      expect(reset).toBeLessThanOrEqual(3600);
      expect(response.headers.get('ratelimit')).toBe(
        `"hourly";r=${response.headers.get('x-ratelimit-remaining')};t=${reset}`,
      );
    }
    for (const response of limited) {
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(3500);
      expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(response.headers.get('ratelimit')).toMatch(/^"hourly";r=0;t=\d+$/);
      const problem = await response.json();
      expect(problem).toMatchObject({ status: 429, code: 'rate_limited' });
      expect(problem.detail).toMatch(/100 requests an hour.*in \d+ minutes/);
    }
  });

  it('keeps one account’s count apart from another’s, and counts errors too', async () => {
    const first = requester(service.baseUrl, await service.createKey('free'));
    const second = requester(service.baseUrl, await service.createKey('free'));
    expect((await first('GET', '/v1/profiles/prf_nope')).headers.get('x-ratelimit-remaining')).toBe('99');
    expect((await first('GET', '/v1/nowhere')).headers.get('x-ratelimit-remaining')).toBe('98');
    expect((await second('GET', '/v1/account')).headers.get('x-ratelimit-remaining')).toBe('99');
  });

  it('does not count the OpenAPI document, health checks or preflights', async () => {
    const key = await service.createKey('free');
    await fetch(`${service.baseUrl}/healthz`);
    await fetch(`${service.baseUrl}/v1/openapi.json`, { headers: { Authorization: `Bearer ${key}` } });
    await fetch(`${service.baseUrl}/v1/profiles`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
        'Access-Control-Request-Method': 'GET',
      },
    });
    const response = await requester(service.baseUrl, key)('GET', '/v1/account');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('99');
  });

  it('announces the premium limit, and none for enterprise', async () => {
    const premium = await requester(service.baseUrl, await service.createKey('premium'))(
      'GET',
      '/v1/account',
    );
    expect(premium.headers.get('ratelimit-policy')).toBe('"hourly";q=1000;w=3600');
    // The hour is counted in whole minutes: this minute's requests leave it at the start of the 60th minute after.
    const [, reset] = /^"hourly";r=999;t=(\d+)$/.exec(premium.headers.get('ratelimit') ?? '') ?? [];
    expect(Number(reset)).toBeGreaterThan(3540);
    expect(Number(reset)).toBeLessThanOrEqual(3600);
    const enterprise = await requester(service.baseUrl, await service.createKey('enterprise'))(
      'GET',
      '/v1/account',
    );
    expect(enterprise.status).toBe(200);
    for (const header of ['ratelimit', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining']) {
      expect(enterprise.headers.get(header)).toBeNull();
    }
  });
});

describe('the hour’s count', { timeout: 300_000 }, () => {
  /** Makes `count` requests on a new free key, ends the service with `end`, and answers the next request after a restart. */
  async function nextAfterRestart(count: number, end: (service: ServiceHandle) => Promise<void>) {
    const dataDir = await createDataDir();
    let restarted: ServiceHandle | undefined;
    try {
      const first = await startService({ dataDir });
      const key = await first.createKey('free');
      const request = requester(first.baseUrl, key);
      const answers = await Promise.all(Array.from({ length: count }, () => request('GET', '/v1/account')));
      expect(answers.every((answer) => answer.status === 200)).toBe(true);
      await end(first);
      restarted = await startService({ dataDir });
      return await requester(restarted.baseUrl, key)('GET', '/v1/account');
    } finally {
      await restarted?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }

  it('is kept across a restart: a free key that used its hour is still refused', async () => {
    const before = Date.now();
    const refused = await nextAfterRestart(100, async (service) => {
      expect(await service.stop()).toBe(0);
    });
    expect(refused.status).toBe(429);
    // The hour is counted in whole minutes: it ends an hour after the minute of the requests began, however long the
    // restart took on a loaded machine.
    const hourEnds = Math.floor(before / 60_000) * 60_000 + 3_600_000;
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor((hourEnds - Date.now()) / 1000));
    expect(retryAfter).toBeLessThanOrEqual(3600);
  });

  it('survives kill -9 a moment after the requests: PGlite’s WAL is flushed without a WAL writer', async () => {
    const after = await nextAfterRestart(30, async (service) => {
      // Counts commit without waiting for the disk; they reach it within 200 ms.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await service.kill();
    });
    expect(after.headers.get('x-ratelimit-remaining')).toBe('69');
  });
});

describe('requests without a valid key', () => {
  // Last in this file: it uses up the failure budget of 127.0.0.1 for a minute.
  it('are limited per client address, while valid keys from there still work', async () => {
    const good = requester(service.baseUrl, await service.createKey('enterprise'));
    const guess = requester(service.baseUrl, `pp_live_${'G'.repeat(32)}`);
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_FAILURES_PER_MINUTE + 5; i++)
      statuses.push((await guess('GET', '/v1/account')).status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(AUTH_FAILURES_PER_MINUTE);
    expect(statuses.slice(AUTH_FAILURES_PER_MINUTE)).toEqual([429, 429, 429, 429, 429]);

    const refused = await fetch(`${service.baseUrl}/v1/account`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    expect((await good('GET', '/v1/account')).status).toBe(200);
  });
});
