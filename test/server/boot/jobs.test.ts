import { describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../server/boot/app';
import { backgroundJobs, scheduleJobs } from '../../../server/boot/jobs';
import { wireService } from '../../../server/boot/wiring';
import { loadConfig } from '../../../server/core/config';
import { createLifecycle, type Job, type Lifecycle } from '../../../server/core/lifecycle';
import { createLogger } from '../../../server/core/log';
import type { Database } from '../../../server/db/driver';

const log = createLogger({ write: () => {} });

describe('background jobs', () => {
  it('building the service and two apps registers no start or shutdown hook: only the jobs list does', () => {
    const hooks: string[] = [];
    const lifecycle: Lifecycle = {
      onStart: (name) => void hooks.push(`start ${name}`),
      onShutdown: (name) => void hooks.push(`stop ${name}`),
      shutdownSignal: new AbortController().signal,
    };
    const deps = wireService({
      db: { kind: 'pglite' } as Database,
      config: loadConfig({ DATA_DIR: '/nonexistent' }),
      log,
      clock: { now: () => new Date() },
      lifecycle,
    });
    createApp(deps);
    createApp(deps);
    expect(hooks).toEqual([]);
    const jobs = backgroundJobs(deps);
    scheduleJobs(jobs, lifecycle);
    expect(hooks.filter((hook) => hook.startsWith('start '))).toEqual(jobs.map((job) => `start ${job.name}`));
    expect(new Set(jobs.map((job) => job.name)).size).toBe(jobs.length);
  });

  it('starts the jobs in order, repeats them, and stops them in reverse, each signal aborted at its turn', async () => {
    const order: string[] = [];
    const signals = new Map<string, AbortSignal>();
    let repeats = 0;
    const job = (name: string, extra: Partial<Job> = {}): Job => ({
      name,
      start: (signal) => {
        signals.set(name, signal);
        order.push(`start ${name}`);
      },
      stop: () => {
        order.push(`stop ${name}: a ${signals.get('a')?.aborted}, b ${signals.get('b')?.aborted}`);
      },
      ...extra,
    });
    const lifecycle = createLifecycle(log);
    scheduleJobs([job('a'), job('b', { every: { ms: 5, run: () => void repeats++ } })], lifecycle);
    await lifecycle.runStart();
    // Every 5 ms, but a loaded machine may run the timer late: waited for, not slept on.
    await vi.waitFor(() => expect(repeats).toBeGreaterThan(1), { timeout: 10_000 });
    await lifecycle.runShutdown();
    const after = repeats;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(repeats).toBe(after);
    expect(order).toEqual(['start a', 'start b', 'stop b: a false, b true', 'stop a: a true, b true']);
  });
});
