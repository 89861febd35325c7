import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { watchStore } from '../../../entrypoints/background/watch-store';
import { createWatcher, WATCH_ALARM } from '../../../entrypoints/background/watcher';
import { connection, type WatchedRun, watchedRuns } from '../../../lib/storage';
import type { FakeService } from '../../support/fake-service';
import { installBrowser, installService, sent } from './browser-stubs';

const START = Date.UTC(2025, 0, 6, 9);

let service: FakeService;
/** Each worker instance is a generation; answers to an ended generation's requests reach no one. */
let generation = 0;
let current: ReturnType<typeof startWorker> | null = null;
/** Whether the worker's event stream is live (it then reports every change and the watcher need not poll). */
let streaming = false;

function startWorker() {
  const mine = ++generation;
  const alive = () => generation === mine;
  const announce = vi.fn(async (_: WatchedRun) => {});
  const watcher = createWatcher({
    ...watchStore,
    now: Date.now,
    setTimer(callback, ms) {
      const timer = setTimeout(() => alive() && callback(), ms);
      return () => clearTimeout(timer);
    },
    alarm: {
      set: async (when) => fakeBrowser.alarms.create(WATCH_ALARM, { when }),
      clear: async () => {
        await fakeBrowser.alarms.clear(WATCH_ALARM);
      },
    },
    announce,
    streaming: () => streaming,
  });
  const worker = {
    watcher,
    announce,
    end() {
      generation++;
      current = null;
    },
  };
  current = worker;
  return worker;
}

/**
 * Lets the worker run until the clock reaches `ms` from the test's start, firing the alarm as Chrome would:
 * it wakes the worker, starting a new one if the last was ended.
 */
async function until(ms: number): Promise<void> {
  const target = START + ms;
  for (let alarm = await fakeBrowser.alarms.get(WATCH_ALARM); alarm && alarm.scheduledTime <= target; ) {
    await vi.advanceTimersByTimeAsync(Math.max(0, alarm.scheduledTime - Date.now()));
    await fakeBrowser.alarms.clear(WATCH_ALARM);
    void (current ?? startWorker()).watcher.wake();
    await vi.advanceTimersByTimeAsync(0);
    alarm = await fakeBrowser.alarms.get(WATCH_ALARM);
  }
  await vi.advanceTimersByTimeAsync(Math.max(0, target - Date.now()));
}
const entry = async (id: string) => (await watchedRuns.getValue()).find((e) => e.run.id === id);
const watcherRequests = () => sent(service).filter((line) => line.includes('/automation/'));

beforeEach(async () => {
  vi.useFakeTimers({ now: START });
  current = null;
  streaming = false;
  installBrowser();
  service = installService({ plan: 'free' });
  const serviceFetch = service.fetch;
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
    const caller = generation;
    return new Promise<Response>((resolve, reject) => {
      serviceFetch(input, init).then(
        (response) => caller === generation && resolve(response),
        (error) => caller === generation && reject(error),
      );
    });
  });
  await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: 'pk_test' });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the watcher', () => {
  it('asks nothing and leaves no alarm while no run is followed', async () => {
    const { watcher } = startWorker();
    await watcher.wake();
    await until(10 * 60_000);
    expect(service.requests).toEqual([]);
    expect(await fakeBrowser.alarms.getAll()).toEqual([]);
  });

  it('follows a run to its end with long-polls, records each change, announces it once, then stops', async () => {
    const { watcher, announce } = startWorker();
    const run = service.createRun('prf_1', 'Prices');
    await watcher.watch(run);
    await until(0);
    expect(watcherRequests()).toEqual([`GET /v1/automation/status?run_id=${run.id}&wait=25&after_version=1`]);

    service.updateRun(run.id, { status: 'running' });
    await until(0);
    expect((await entry(run.id))?.run).toMatchObject({ status: 'running', version: 2 });

    // Free, 99 left: the next long-poll ~73 s after the first.
    await until(72_000);
    expect(watcherRequests()).toHaveLength(1);
    await until(74_000);
    expect(watcherRequests()[1]).toContain('after_version=2');

    service.updateRun(run.id, { status: 'succeeded', output: { title: 'Example' } });
    await until(75_000);
    expect(await entry(run.id)).toMatchObject({ phase: 'ended', endedAt: START + 74_000, notified: true });
    expect(announce).toHaveBeenCalledOnce();
    expect(announce.mock.calls[0]?.[0].run.status).toBe('succeeded');

    await until(30 * 60_000);
    expect(watcherRequests()).toHaveLength(2);
    expect(await fakeBrowser.alarms.getAll()).toEqual([]);
  });

  it('polls not at all while the stream is live: events bring each change, and it announces the end once', async () => {
    streaming = true;
    const { watcher, announce } = startWorker();
    const run = service.createRun('prf_1', 'Streamed');
    await watcher.watch(run);
    await until(0);
    await watcher.apply({ ...run, status: 'running', version: 2 });
    expect((await entry(run.id))?.run).toMatchObject({ status: 'running', version: 2 });
    // The alarm stays as the backstop of a worker that Chrome ends with its stream.
    expect((await fakeBrowser.alarms.get(WATCH_ALARM))?.scheduledTime).toBe(START + 30_000);
    await watcher.apply({ ...run, status: 'succeeded', version: 3, output: { title: 'Example' } });
    await until(10 * 60_000);
    expect(await entry(run.id)).toMatchObject({ phase: 'ended', notified: true, run: { version: 3 } });
    expect(announce).toHaveBeenCalledOnce();
    expect(watcherRequests()).toEqual([]);
  });

  it('with the stream dropped, polls again from the plan', async () => {
    streaming = true;
    const { watcher } = startWorker();
    const run = service.createRun('prf_1');
    await watcher.watch(run);
    await until(0);
    expect(watcherRequests()).toEqual([]);
    streaming = false;
    void watcher.wake();
    await until(0);
    expect(watcherRequests()).toEqual([`GET /v1/automation/status?run_id=${run.id}&wait=25&after_version=1`]);
  });

  it('keeps an alarm while it waits, so an ended worker is woken to go on', async () => {
    const { watcher } = startWorker();
    const run = service.createRun('prf_1');
    await watcher.watch(run);
    await until(1_000);
    // A long-poll in flight: the backstop is due once it would have ended.
    expect((await fakeBrowser.alarms.get(WATCH_ALARM))?.scheduledTime).toBe(START + 30_000);
    await until(26_000);
    // Answered without change; the next poll is over a minute away: only the alarm keeps it.
    expect((await fakeBrowser.alarms.get(WATCH_ALARM))?.scheduledTime).toBeGreaterThan(START + 70_000);
  });

  it('covers several runs with one list of recent runs, the ones that ended included', async () => {
    const { watcher, announce } = startWorker();
    const runs = ['prf_1', 'prf_2', 'prf_3'].map((profile) => service.createRun(profile));
    for (const run of runs) await watcher.watch(run);
    await until(0);
    const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
    service.updateRun(first.id, { status: 'running' });
    service.updateRun(second.id, { status: 'running' });
    service.updateRun(second.id, { status: 'failed', error: 'No #price on the page.' });
    await until(10 * 60_000);
    const lists = watcherRequests().filter((line) => line.includes('/v1/automation/status?limit='));
    const fetches = watcherRequests().filter((line) => line.includes('run_id=') && !line.includes('wait='));
    expect(lists.length).toBeGreaterThan(1);
    expect(fetches).toEqual([]);
    expect((await entry(first.id))?.run.version).toBe(2);
    expect(await entry(second.id)).toMatchObject({
      phase: 'ended',
      run: { error: 'No #price on the page.' },
    });
    expect(announce).toHaveBeenCalledOnce();
  });

  it('fetches once a followed run that newer runs pushed off the list', async () => {
    const { watcher, announce } = startWorker();
    const runs = ['prf_1', 'prf_2', 'prf_3'].map((profile) => service.createRun(profile));
    for (const run of runs) await watcher.watch(run);
    await until(0);
    const [first] = runs as [(typeof runs)[0]];
    service.updateRun(first.id, { status: 'succeeded' });
    for (let i = 0; i < 60; i++) service.createRun('prf_9');
    await until(10 * 60_000);
    const fetches = watcherRequests().filter((line) => line.endsWith(`run_id=${first.id}`));
    expect(fetches).toHaveLength(1);
    expect(await entry(first.id)).toMatchObject({ phase: 'ended', run: { status: 'succeeded' } });
    expect(announce).toHaveBeenCalledOnce();
  });

  it('waits out a 429’s Retry-After, then asks once', async () => {
    const { watcher } = startWorker();
    // Another device used the whole hour half an hour ago.
    await until(0);
    for (let i = 0; i < 100; i++) await service.fetch('http://127.0.0.1:8787/v1/profiles', {});
    await until(30 * 60_000);
    const run = service.createRun('prf_1');
    await watcher.watch(run);
    await until(30 * 60_000 + 1);
    expect(service.requests.at(-1)).toMatchObject({ status: 429 });
    await until(59 * 60_000);
    expect(watcherRequests()).toHaveLength(1);
    await until(60 * 60_000 + 1_000);
    expect(watcherRequests()).toHaveLength(2);
    expect(service.requests.at(-1)?.status).toBe(200);
    expect(service.requests.filter((request) => request.status === 429)).toHaveLength(1);
  });

  it('backs off while the service cannot be reached, and goes on when it can', async () => {
    const { watcher } = startWorker();
    service.outage = 0;
    const run = service.createRun('prf_1');
    await watcher.watch(run);
    await until(60_000);
    // Each attempt is the client's three tries; the watcher waits 5, 10, 20 s between attempts.
    const attempts = [
      ...new Set(service.requests.map((request) => Math.floor((request.at - START) / 5_000))),
    ];
    expect(attempts.length).toBeLessThanOrEqual(4);
    service.outage = null;
    service.updateRun(run.id, { status: 'succeeded' });
    await until(10 * 60_000);
    expect((await entry(run.id))?.phase).toBe('ended');
  });

  it('drops a run the service no longer knows, with a sentence saying so', async () => {
    const { watcher, announce } = startWorker();
    const run = service.createRun('prf_1');
    service.runs.delete(run.id);
    await watcher.watch(run);
    await until(0);
    expect(await entry(run.id)).toMatchObject({ phase: 'dropped', message: 'That run no longer exists.' });
    expect(announce).toHaveBeenCalledOnce();
    await until(10 * 60_000);
    expect(watcherRequests()).toHaveLength(1);
  });

  it('survives being ended mid-request: the next worker resumes from storage and announces once', async () => {
    const first = startWorker();
    const run = service.createRun('prf_1');
    await first.watcher.watch(run);
    await until(5_000);
    first.end();
    // The run ends while no worker lives; the long-poll's answer is lost with the worker.
    service.updateRun(run.id, { status: 'succeeded' });
    await until(29_000);
    const alarm = await fakeBrowser.alarms.get(WATCH_ALARM);
    expect(alarm?.scheduledTime).toBe(START + 30_000);

    await until(31_000);
    const second = current;
    expect(second).not.toBeNull();
    expect(await entry(run.id)).toMatchObject({ phase: 'ended', notified: true });
    expect(second?.announce).toHaveBeenCalledOnce();
    expect(first.announce).not.toHaveBeenCalled();

    second?.end();
    const third = startWorker();
    await third.watcher.wake();
    await until(40 * 60_000);
    expect(third.announce).not.toHaveBeenCalled();
    expect(await fakeBrowser.alarms.getAll()).toEqual([]);
  });

  it('stops following a cancelled run at once, abandoning its long-poll', async () => {
    const { watcher } = startWorker();
    const run = service.createRun('prf_1');
    await watcher.watch(run);
    await until(1_000);
    expect(await watcher.cancel(run.id)).toEqual({ cancelled: true });
    expect(await watcher.cancel(run.id)).toEqual({ cancelled: false });
    await until(30 * 60_000);
    expect(watcherRequests()).toHaveLength(1);
    expect(await watchedRuns.getValue()).toEqual([]);
    expect(await fakeBrowser.alarms.getAll()).toEqual([]);
  });

  it('marks ended runs as seen, one or all', async () => {
    const { watcher } = startWorker();
    const runs = ['prf_1', 'prf_2'].map((profile) =>
      service.updateRun(service.createRun(profile).id, { status: 'failed' }),
    );
    for (const run of runs) await watcher.watch(run);
    await watcher.markSeen(runs[0]?.id);
    expect((await watchedRuns.getValue()).map((e) => e.seen)).toEqual([false, true]);
    await watcher.markSeen();
    expect((await watchedRuns.getValue()).map((e) => e.seen)).toEqual([true, true]);
  });
});
