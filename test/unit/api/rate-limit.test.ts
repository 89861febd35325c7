import { describe, expect, it } from 'vitest';
import { readQuota, readRetryAfter } from '../../../lib/api/rate-limit';
import { jsonResponse, networkFailure, problemResponse } from './fake-fetch';
import { account } from './fixtures';
import { failure, harness, NOW } from './harness';

const quota = (headers: Record<string, string>) => readQuota(new Headers(headers), NOW);
const IETF = { 'RateLimit-Policy': '"hourly";q=100;w=3600', RateLimit: '"hourly";r=72;t=1234' };
const X_RATELIMIT = {
  'X-RateLimit-Limit': '1000',
  'X-RateLimit-Remaining': '999',
  'X-RateLimit-Reset': '60',
};

describe('readQuota', () => {
  it('reads the IETF RateLimit and RateLimit-Policy pair', () => {
    expect(quota(IETF)).toEqual({ limit: 100, remaining: 72, resetSeconds: 1234, observedAt: NOW });
  });

  it('reads the X-RateLimit triple', () => {
    expect(quota(X_RATELIMIT)).toEqual({ limit: 1000, remaining: 999, resetSeconds: 60, observedAt: NOW });
  });

  it('prefers the IETF headers when both are sent', () => {
    expect(quota({ ...IETF, ...X_RATELIMIT })).toMatchObject({
      limit: 100,
      remaining: 72,
      resetSeconds: 1234,
    });
  });

  it('answers nulls when no headers come (an unlimited plan)', () => {
    expect(quota({})).toEqual({ limit: null, remaining: null, resetSeconds: null, observedAt: NOW });
  });

  it('reads the older draft’s RateLimit-Limit/-Remaining/-Reset triple, with a policy after the limit', () => {
    const older = {
      'RateLimit-Limit': '100, 100;w=3600',
      'RateLimit-Remaining': '5',
      'RateLimit-Reset': '30',
    };
    expect(quota(older)).toMatchObject({ limit: 100, remaining: 5, resetSeconds: 30 });
  });

  it('matches the policy of the same name among several, whitespace and case aside', () => {
    const headers = {
      'ratelimit-policy': '"daily";q=5000;w=86400, "hourly";q=100;w=3600',
      ratelimit: ' "hourly";r=0;t=36 ',
    };
    expect(quota(headers)).toMatchObject({ limit: 100, remaining: 0, resetSeconds: 36 });
  });

  it('takes the first policy when the RateLimit header names none that exists', () => {
    expect(quota({ 'RateLimit-Policy': '"a";q=10;w=60', RateLimit: '"b";r=3;t=5' })).toMatchObject({
      limit: 10,
    });
  });

  it('fills a field the IETF headers leave out from the other headers', () => {
    expect(quota({ RateLimit: '"hourly";r=7;t=9', 'X-RateLimit-Limit': '100' })).toMatchObject({
      limit: 100,
      remaining: 7,
      resetSeconds: 9,
    });
  });

  it('turns an epoch X-RateLimit-Reset into seconds from now', () => {
    const epoch = String(NOW / 1000 + 90);
    expect(quota({ 'X-RateLimit-Reset': epoch }).resetSeconds).toBe(90);
    expect(quota({ 'X-RateLimit-Reset': String(NOW / 1000 - 5) }).resetSeconds).toBe(0);
  });

  it.each([
    ['words', { 'X-RateLimit-Limit': 'lots', 'X-RateLimit-Remaining': 'some', 'X-RateLimit-Reset': 'soon' }],
    [
      'negatives and fractions',
      { 'X-RateLimit-Limit': '-1', 'X-RateLimit-Remaining': '1.5', 'X-RateLimit-Reset': '' },
    ],
    ['numbers with trailing junk', { 'X-RateLimit-Limit': '12abc', 'X-RateLimit-Remaining': '0x10' }],
    ['broken structured fields', { 'RateLimit-Policy': 'q=100', RateLimit: '"hourly";r=;t=abc;rr=5' }],
    [
      'a parameter name that only ends like one',
      { 'RateLimit-Policy': '"h";qq=100', RateLimit: '"h";xr=1;xt=2' },
    ],
  ])('ignores garbage: %s', (_, headers) => {
    expect(quota(headers)).toEqual({ limit: null, remaining: null, resetSeconds: null, observedAt: NOW });
  });
});

describe('readRetryAfter', () => {
  it.each([
    ['120', 120],
    ['0', 0],
    [new Date(NOW + 30_000).toUTCString(), 30],
    [new Date(NOW - 30_000).toUTCString(), 0],
    ['soon', null],
    ['-5', null],
  ])('%s → %s', (value, seconds) => {
    expect(readRetryAfter(value, NOW)).toBe(seconds);
  });

  it('is null without the header', () => {
    expect(readRetryAfter(null, NOW)).toBeNull();
  });
});

describe('quota reports', () => {
  const headers = { 'RateLimit-Policy': '"hourly";q=100;w=3600', RateLimit: '"hourly";r=41;t=7' };

  it('reports after a successful answer', async () => {
    const { api, quotas } = harness([jsonResponse(account, 200, headers)]);
    await api.getAccount();
    expect(quotas).toEqual([{ limit: 100, remaining: 41, resetSeconds: 7, observedAt: NOW }]);
  });

  it('reports after an error and after a 429', async () => {
    const { api, quotas } = harness([
      problemResponse(404, { code: 'not_found' }, headers),
      problemResponse(
        429,
        { code: 'rate_limited' },
        { ...headers, RateLimit: '"hourly";r=0;t=300', 'Retry-After': '300' },
      ),
    ]);
    await failure(api.getProfile('prf_1'));
    await failure(api.getProfile('prf_1'));
    expect(quotas.map((q) => q.remaining)).toEqual([41, 0]);
  });

  it('reports once per answer when retrying, and not for a request that got none', async () => {
    const { api, quotas } = harness([
      networkFailure(),
      new Response('', { status: 503, headers }),
      jsonResponse(account, 200, { ...headers, RateLimit: '"hourly";r=40;t=7' }),
    ]);
    await api.getAccount();
    expect(quotas.map((q) => q.remaining)).toEqual([41, 40]);
  });

  it('reports all nulls for an unlimited plan', async () => {
    const { api, quotas } = harness([jsonResponse(account)]);
    await api.getAccount();
    expect(quotas).toEqual([{ limit: null, remaining: null, resetSeconds: null, observedAt: NOW }]);
  });
});
