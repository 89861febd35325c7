/**
 * Runs and starts that find no browser wait in line, as a person with more profiles than the machine holds
 * browsers meets them: on a service with MAX_BROWSERS=2, a batch of 10 finishes by itself two at a time; another
 * account's batch is not starved; a batch is paused, resumed and cancelled; a profile deleted while its run waits
 * fails it with a sentence; a run whose browser crashed is run again; a bulk start says how many wait; a single
 * start given a wait takes its place in line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { Script } from '../../../lib/api/inputs/automation';
import type { AutomationRun } from '../../../lib/api/schemas/automation';
import { apiError, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let api: ApiClient;
let other: ApiClient;

beforeAll(async () => {
  service = await startServiceInProcess({ env: { MAX_BROWSERS: '2' } });
  api = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
  other = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
});

afterAll(async () => {
  await service?.close();
});

const quick: Script = {
  steps: [
    { action: 'goto' as const, url: 'about:blank' },
    { action: 'evaluate' as const, expression: '1' },
  ],
};
const slow = (ms: number): Script => ({ steps: [{ action: 'wait_for' as const, ms }] });

async function profiles(client: ApiClient, count: number, name: string): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 1; n <= count; n++) ids.push((await client.createProfile({ name: `${name} ${n}` })).id);
  return ids;
}

async function runBatch(client: ApiClient, ids: string[], script: Script): Promise<string> {
  const queued = await client.bulkProfiles({ select: { ids }, action: 'run', script });
  expect(queued.succeeded).toBe(ids.length);
  return queued.batch_id as string;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const finished = (client: ApiClient, id: string) =>
  until(
    () => client.getBatch(id),
    (batch) => batch.finished,
  );

async function runsOf(client: ApiClient, batchId: string): Promise<AutomationRun[]> {
  return (await client.listRuns({ batch_id: batchId, limit: 100 })).data;
}

/** The most runs that ran at the same moment. */
function mostAtOnce(runs: AutomationRun[]): number {
  const moments = runs.flatMap((run) => [
    { at: Date.parse(run.started_at as string), change: 1 },
    { at: Date.parse(run.finished_at as string), change: -1 },
  ]);
  moments.sort((a, b) => a.at - b.at || a.change - b.change);
  let now = 0;
  let most = 0;
  for (const moment of moments) {
    now += moment.change;
    most = Math.max(most, now);
  }
  return most;
}

describe('the queue for browsers', () => {
  it('runs a batch of 10 on a machine of 2 browsers to its end, two at a time, with no retry by hand', async () => {
    const batchId = await runBatch(api, await profiles(api, 10, 'Fleet'), quick);
    const batch = await finished(api, batchId);
    expect(batch.summary).toBe('10 of 10 succeeded');
    expect(mostAtOnce(await runsOf(api, batchId))).toBeLessThanOrEqual(2);
    const listed = await api.listBatches({ limit: 1 });
    expect(listed.data[0]?.id).toBe(batchId);
  }, 180_000);

  it("keeps one account's batch from holding every browser while another account waits", async () => {
    const long = await runBatch(api, await profiles(api, 6, 'Long'), slow(700));
    await until(
      () => api.getBatch(long),
      (batch) => batch.running === 2,
    );
    const short = await runBatch(other, await profiles(other, 2, 'Short'), slow(700));
    await finished(other, short);
    // Two of six take 3 rounds at least: with the node shared, the other account's 2 are through before that.
    const meanwhile = await api.getBatch(long);
    expect(meanwhile.queued + meanwhile.running).toBeGreaterThan(0);
    expect((await finished(api, long)).summary).toBe('6 of 6 succeeded');
  }, 180_000);

  it('pauses, resumes and cancels a batch, and says why when it cannot', async () => {
    const batchId = await runBatch(api, await profiles(api, 5, 'Pause'), slow(500));
    const paused = await api.pauseBatch(batchId);
    expect(paused).toMatchObject({ paused: true, estimated_finish_at: null });
    const again = await apiError(api.pauseBatch(batchId));
    expect([again.status, again.message]).toEqual([409, expect.stringContaining('already paused')]);
    // What was running ends; the rest waits for the resume.
    const held = await until(
      () => api.getBatch(batchId),
      (batch) => batch.running === 0,
    );
    expect(held.queued).toBeGreaterThanOrEqual(3);
    expect(held.summary).toContain('not finished yet (paused)');

    expect((await api.resumeBatch(batchId)).paused).toBe(false);
    expect((await apiError(api.resumeBatch(batchId))).status).toBe(409);
    const cancelled = await api.cancelBatch(batchId);
    expect(cancelled.finished).toBe(true);
    expect(cancelled.cancelled).toBeGreaterThan(0);
    const late = await apiError(api.cancelBatch(batchId));
    expect([late.status, late.message]).toEqual([
      409,
      expect.stringContaining('This batch has finished; there is nothing left to cancel.'),
    ]);
    expect((await apiError(other.pauseBatch(batchId))).status).toBe(404);
  }, 180_000);

  it('fails a waiting run whose profile was deleted, with a sentence', async () => {
    const ids = await profiles(api, 3, 'Deleted');
    const batchId = await runBatch(api, ids, slow(1500));
    const [last] = (await runsOf(api, batchId)).filter((run) => run.profile_id === ids[2]);
    expect(last?.status).toBe('queued');
    await api.deleteProfile(ids[2] as string);
    const batch = await finished(api, batchId);
    expect(batch.summary).toBe('2 of 3 succeeded, 1 failed');
    expect((await api.getRun(last?.id as string)).error).toBe(
      'Its profile was deleted while this run waited for a browser.',
    );
  }, 180_000);

  it('runs again a run whose browser crashed during a plain wait, and counts it retried', async () => {
    const [id] = await profiles(api, 1, 'Crash');
    // A plain wait needs no browser: the crash must end the step all the same, at once, or the run would wait
    // on and succeed as if nothing had happened.
    const batchId = await runBatch(api, [id as string], slow(30_000));
    const [run] = await until(
      () => runsOf(api, batchId),
      (runs) => runs[0]?.steps[0]?.status === 'running',
    );
    const session = await api.getSession(run?.session_id as string);
    const socket = new WebSocket(session.cdp_url as string);
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ id: 1, method: 'Browser.crash' }));
    const again = await until(
      () => api.getRun(run?.id as string),
      (latest) => (latest.retries ?? 0) > 0 || latest.finished_at !== null,
    );
    socket.terminate();
    expect(again).toMatchObject({ retries: 1, finished_at: null });
    await api.cancelBatch(batchId);
    expect((await finished(api, batchId)).summary).toMatch(/, 1 retried$/);
  }, 180_000);

  it('answers a stop asked while a crash is being recorded with the crash, not as its own stop', async () => {
    const [id] = await profiles(api, 1, 'Crash stop');
    const session = await api.startSession({ profile_id: id as string });
    const socket = new WebSocket(session.cdp_url as string);
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ id: 1, method: 'Browser.crash' }));
    // The DevTools socket closes as the exit is seen, while its profile is still being saved.
    await new Promise((resolve) => socket.once('close', resolve));
    const stopped = await api.stopSession({ profile_id: id as string });
    expect(stopped).toMatchObject({ status: 'stopped', stop_reason: 'browser_exited' });
    expect(await api.getSession(session.id)).toMatchObject({ stop_reason: 'browser_exited' });
  }, 60_000);

  it('starts what there is room for and queues the rest of a bulk start', async () => {
    const ids = await profiles(api, 4, 'Start');
    const answer = await api.bulkProfiles({ select: { ids }, action: 'start' });
    expect(answer).toMatchObject({ selected: 4, succeeded: 4, failed: 0, waiting: 2 });
    const started = answer.items.filter((item) => item.session_id).map((item) => item.session_id as string);
    expect(started).toHaveLength(2);
    expect(answer.items.slice(2).every((item) => item.waiting)).toBe(true);

    await api.bulkProfiles({ select: { ids: ids.slice(0, 2) }, action: 'stop' });
    const running = await until(
      () => api.listSessions({ status: 'running' }),
      (list) =>
        list.data.length === 2 && list.data.every((session) => ids.slice(2).includes(session.profile_id)),
    );
    expect(running.data.map((session) => session.profile_id).sort()).toEqual(ids.slice(2).sort());
    await api.bulkProfiles({ select: { ids }, action: 'stop' });
  }, 180_000);

  it('answers a single start that finds no room from the line, in order, when it is given a wait', async () => {
    const [a, b, c, d] = (await profiles(api, 4, 'Single')) as [string, string, string, string];
    await api.startSession({ profile_id: a });
    await api.startSession({ profile_id: b });
    expect((await apiError(api.startSession({ profile_id: c }))).code).toBe('at_capacity');
    // A profile that runs is told so, not put in line for a second browser.
    expect((await apiError(api.startSessionInLine({ profile_id: a, wait: 1 }))).code).toBe('session_exists');

    const waiting = await api.startSessionInLine({ profile_id: c, wait: 1 });
    expect(waiting).toMatchObject({ profile_id: c, status: 'waiting' });
    expect('detail' in waiting && waiting.detail).toMatch(/waits in line/);
    // Behind C in line: room freed by A goes to C, and D's answer comes once B's room comes too.
    const later = api.startSessionInLine({ profile_id: d, wait: 25 });
    await api.stopSession({ profile_id: a });
    await until(
      () => api.getProfile(c),
      (profile) => profile.status === 'running',
    );
    expect((await api.getProfile(d)).session_id).toBeNull();
    await api.stopSession({ profile_id: b });
    const started = await later;
    expect(started).toMatchObject({ profile_id: d, status: 'running' });
    await api.bulkProfiles({ select: { ids: [c, d] }, action: 'stop' });
  }, 180_000);
});
