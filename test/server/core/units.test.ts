import { describe, expect, it } from 'vitest';
import {
  generateApiKey,
  hashApiKey,
  isWellFormedKey,
  keyPrefix,
  sameHash,
} from '../../../server/core/api-keys';
import { adminSocketPath } from '../../../server/core/data-dir';
import { newId, randomBase62 } from '../../../server/core/ids';
import { createLifecycle } from '../../../server/core/lifecycle';
import { createLogger, redactSecrets } from '../../../server/core/log';
import { KnownRefusals } from '../../../server/http/known-refusals';
import { SlidingWindowLimiter } from '../../../server/http/sliding-window';
import { decodeCursor, encodeCursor } from '../../../server/store/pagination';

describe('SlidingWindowLimiter', () => {
  it('allows `limit` requests per window and frees each slot when its request leaves the window', () => {
    const limiter = new SlidingWindowLimiter(3600_000);
    const t0 = 1_000_000;
    expect(limiter.hit('a', 3, t0)).toEqual({ allowed: true, limit: 3, remaining: 2, resetSeconds: 3600 });
    expect(limiter.hit('a', 3, t0 + 10_000)).toMatchObject({
      allowed: true,
      remaining: 1,
      resetSeconds: 3590,
    });
    expect(limiter.hit('a', 3, t0 + 20_000)).toMatchObject({ allowed: true, remaining: 0 });
    // Refused requests are not counted: they do not push the next free slot further away.
    for (let i = 0; i < 5; i++) expect(limiter.hit('a', 3, t0 + 30_000).allowed).toBe(false);
    expect(limiter.hit('a', 3, t0 + 3599_999)).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(limiter.hit('a', 3, t0 + 3600_000)).toMatchObject({
      allowed: true,
      remaining: 0,
      resetSeconds: 10,
    });
    expect(limiter.hit('a', 3, t0 + 3600_001).allowed).toBe(false);
    expect(limiter.hit('b', 3, t0 + 3600_001)).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('drops empty windows once it tracks many keys', () => {
    const limiter = new SlidingWindowLimiter(1000, 10);
    for (let i = 0; i < 50; i++) limiter.hit(`client-${i}`, 1, i);
    expect(limiter.hit('client-0', 1, 5000).allowed).toBe(true);
    expect((limiter as unknown as { hits: Map<string, number[]> }).hits.size).toBeLessThanOrEqual(11);
  });
});

describe('KnownRefusals', () => {
  it('repeats a refusal until it ends, for the same limit only, and drops ended ones once it holds many', () => {
    const refusals = new KnownRefusals(2);
    refusals.remember('acc_a', 100, 5000, 1000);
    expect(refusals.refusedUntil('acc_a', 100, 4999)).toBe(5000);
    expect(refusals.refusedUntil('acc_a', 100, 5000)).toBeNull();
    // Moved to another plan: its limit is asked of the database afresh.
    expect(refusals.refusedUntil('acc_a', 1000, 2000)).toBeNull();
    expect(refusals.refusedUntil('acc_b', 100, 2000)).toBeNull();
    refusals.remember('acc_b', 100, 9000, 6000);
    refusals.remember('acc_c', 100, 9000, 6000);
    expect((refusals as unknown as { until: Map<string, number> }).until.size).toBe(2);
    expect(refusals.refusedUntil('acc_c', 100, 8000)).toBe(9000);
  });
});

describe('API keys', () => {
  it('are pp_live_ and 32 base62 characters, hashed and compared in constant time', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^pp_live_[0-9A-Za-z]{32}$/);
    expect(isWellFormedKey(key)).toBe(true);
    expect(isWellFormedKey(`${key}x`)).toBe(false);
    expect(keyPrefix(key)).toBe(key.slice(0, 12));
    expect(sameHash(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(sameHash(hashApiKey(key), hashApiKey(generateApiKey()))).toBe(false);
    expect(sameHash(hashApiKey(key), 'abcd')).toBe(false);
  });

  it('use every base62 character about equally often', () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(62_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(count).toBeGreaterThan(800);
    expect(newId('prf')).toMatch(/^prf_[0-9A-Za-z]{20}$/);
    // Many times the bytes drawn at once: none is used twice.
    expect(new Set(Array.from({ length: 2_000 }, () => newId('prf'))).size).toBe(2_000);
  });
});

describe('logs', () => {
  it('redact keys and bearer tokens', () => {
    const key = generateApiKey();
    const line = redactSecrets(`{"msg":"x","auth":"Bearer ${key}","key":"${key}"}`);
    expect(line).not.toContain(key);
    expect(line).toContain('Bearer [redacted]');
    expect(line).toContain(`${key.slice(0, 12)}…[redacted]`);
  });

  it('are JSON lines at or above the level', () => {
    const lines: string[] = [];
    const log = createLogger({ level: 'info', write: (line) => lines.push(line) }).child({ part: 'test' });
    log.debug('hidden');
    log.error('boom', { error: new Error('bad') });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      level: 'error',
      msg: 'boom',
      part: 'test',
      error: { message: 'bad' },
    });
  });
});

describe('cursors', () => {
  it('round-trip and refuse strangers', () => {
    expect(decodeCursor(encodeCursor(42))).toBe(42);
    expect(decodeCursor('garbage')).toBeNull();
    expect(decodeCursor(Buffer.from('seq:-1').toString('base64url'))).toBeNull();
  });
});

describe('lifecycle', () => {
  it('runs start hooks in order and shutdown hooks in reverse, after aborting the signal', async () => {
    const order: string[] = [];
    const lifecycle = createLifecycle(createLogger({ write: () => {} }));
    lifecycle.onStart('a', () => void order.push('start a'));
    lifecycle.onStart('b', () => void order.push('start b'));
    lifecycle.onShutdown('a', () => void order.push(`stop a ${lifecycle.shutdownSignal.aborted}`));
    lifecycle.onShutdown('b', () => {
      throw new Error('a failing hook does not stop the others');
    });
    await lifecycle.runStart();
    await lifecycle.runShutdown();
    expect(order).toEqual(['start a', 'start b', 'stop a true']);
  });
});

describe('admin socket path', () => {
  it('lives in the data dir unless that path is too long for a socket', () => {
    expect(adminSocketPath('/srv/data')).toBe('/srv/data/admin.sock');
    const long = adminSocketPath(`/tmp/${'d'.repeat(120)}`);
    expect(Buffer.byteLength(long)).toBeLessThan(104);
    expect(long).toBe(adminSocketPath(`/tmp/${'d'.repeat(120)}`));
  });
});
