import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import background from '../../../entrypoints/background';
import type { Reply, WorkerReplies, WorkerRequest } from '../../../lib/messaging';
import {
  cachedProfiles,
  cachedSessions,
  connection,
  lastProfile,
  lastRun,
  preferences,
  watchedRuns,
} from '../../../lib/storage';
import { type FakeService, SESSION_EXISTS_DETAIL } from '../../bench/fake-service';
import { profile } from '../popup/harness';
import { getMessage, installBrowser, installService, POPUP, sent } from './browser-stubs';

const START = Date.UTC(2025, 0, 6, 9);
const script = { steps: [{ action: 'goto' as const, url: 'https://example.com' }] };
let service: FakeService;

/** Delivers a message as the browser would, and resolves with the worker's answer (if it gave one). */
async function deliver(message: unknown, sender: object = POPUP): Promise<Reply<unknown> | undefined> {
  const [reply] = await fakeBrowser.runtime.onMessage.trigger(message, sender);
  return reply as Reply<unknown> | undefined;
}

function send<M extends WorkerRequest>(message: M): Promise<Reply<WorkerReplies[M['type']]> | undefined> {
  return deliver(message) as Promise<Reply<WorkerReplies[M['type']]> | undefined>;
}

/** Whether a fakeBrowser event has listeners (its typings leave `hasListeners` out). */
const listened = (event: object) => (event as { hasListeners(): boolean }).hasListeners();

beforeEach(async () => {
  vi.useFakeTimers({ now: START });
  installBrowser();
  service = installService({ plan: 'free' });
  await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: 'pk_test' });
  await cachedProfiles.setValue({
    data: [profile('prf_1', 'Shop'), profile('prf_2', 'Mail')],
    savedAt: START,
  });
});

afterEach(() => {
  vi.useRealTimers();
});

async function startWorker() {
  background.main();
  await vi.advanceTimersByTimeAsync(0);
}

describe('start-up', () => {
  it('registers every listener synchronously, before any await', () => {
    background.main();
    expect(listened(fakeBrowser.runtime.onMessage)).toBe(true);
    expect(listened(fakeBrowser.alarms.onAlarm)).toBe(true);
    expect(listened(fakeBrowser.notifications.onClicked)).toBe(true);
    expect(listened(fakeBrowser.runtime.onStartup)).toBe(true);
  });

  it('reconciles the sessions with the service, so a session that is gone is not shown running', async () => {
    const gone = service.stopSession(service.startSession('prf_1').id, 'service_shutdown');
    const alive = service.startSession('prf_2');
    await cachedSessions.setValue({ data: [{ ...gone, status: 'running', stop_reason: null }], savedAt: 0 });
    await startWorker();
    expect(sent(service)).toEqual([
      'GET /v1/sessions?status=running&limit=100',
      `GET /v1/sessions/${gone.id}`,
    ]);
    expect((await cachedSessions.getValue())?.data.map((s) => s.id)).toEqual([alive.id]);
    const profiles = (await cachedProfiles.getValue())?.data;
    expect(profiles?.map((p) => [p.id, p.status, p.session_id])).toEqual([
      ['prf_1', 'idle', null],
      ['prf_2', 'running', alive.id],
    ]);
  });

  it('keeps an old running session that more than a page of newer ones push off the first page', async () => {
    const old = service.startSession('prf_1');
    for (let index = 0; index < 150; index++) service.startSession(`prf_other_${index}`);
    await startWorker();
    expect(sent(service)).toHaveLength(2);
    const live = (await cachedSessions.getValue())?.data ?? [];
    expect(live).toHaveLength(151);
    expect(live.at(-1)?.id).toBe(old.id);
    const profiles = (await cachedProfiles.getValue())?.data;
    expect(profiles?.find((p) => p.id === 'prf_1')).toMatchObject({ status: 'running', session_id: old.id });
  });

  it('does not ask again when the sessions were reconciled a moment ago, nor without a key', async () => {
    await cachedSessions.setValue({ data: [], savedAt: START - 60_000 });
    await startWorker();
    await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: null });
    await cachedSessions.setValue(null);
    await startWorker();
    expect(service.requests).toEqual([]);
  });

  it('resumes following the runs in storage', async () => {
    const run = service.createRun('prf_1');
    await watchedRuns.setValue([
      { run, phase: 'watching', since: START, endedAt: null, notified: false, seen: false, message: null },
    ]);
    await cachedSessions.setValue({ data: [], savedAt: START });
    await startWorker();
    expect(sent(service)).toEqual([`GET /v1/automation/status?run_id=${run.id}&wait=25&after_version=1`]);
  });
});

describe('messages', () => {
  beforeEach(async () => {
    await cachedSessions.setValue({ data: [], savedAt: START });
    await startWorker();
  });

  it('session.start starts the profile’s browser, remembers the profile, and counts it on the badge', async () => {
    await preferences.setValue({ notifyRuns: true, notifySessionExits: true, headless: true });
    const reply = await send({ type: 'session.start', profileId: 'prf_1' });
    expect(reply).toMatchObject({ ok: true, value: { profile_id: 'prf_1', status: 'running' } });
    expect(JSON.parse(service.requests.at(-1)?.body ?? '')).toEqual({ profile_id: 'prf_1', headless: true });
    expect((await cachedSessions.getValue())?.data).toHaveLength(1);
    expect(await lastProfile.getValue()).toEqual({ id: 'prf_1', name: 'Shop' });
    await vi.advanceTimersByTimeAsync(0);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('1');
  });

  it('session.start leaves the window to the service unless the person chose headless', async () => {
    await send({ type: 'session.start', profileId: 'prf_1' });
    expect(JSON.parse(service.requests.at(-1)?.body ?? '')).toEqual({ profile_id: 'prf_1' });
  });

  it('session.start changes the status of that profile only, whatever the session cache missed', async () => {
    const elsewhere = { ...profile('prf_2', 'Mail'), status: 'running' as const, session_id: 'ses_other' };
    await cachedProfiles.setValue({ data: [profile('prf_1', 'Shop'), elsewhere], savedAt: START });
    await send({ type: 'session.start', profileId: 'prf_1' });
    const statuses = (await cachedProfiles.getValue())?.data.map((p) => [p.id, p.status]);
    expect(statuses).toEqual([
      ['prf_1', 'running'],
      ['prf_2', 'running'],
    ]);
  });

  it('session.start reports a conflict as a sentence and learns the session it did not know', async () => {
    const existing = service.startSession('prf_1');
    const reply = await send({ type: 'session.start', profileId: 'prf_1', headless: false });
    expect(reply).toMatchObject({
      ok: false,
      error: { code: 'session_exists', status: 409, message: SESSION_EXISTS_DETAIL },
    });
    expect((await cachedSessions.getValue())?.data.map((s) => s.id)).toEqual([existing.id]);
  });

  it('session.stop stops it and takes it off the badge', async () => {
    await send({ type: 'session.start', profileId: 'prf_1' });
    const reply = await send({ type: 'session.stop', profileId: 'prf_1' });
    expect(reply).toMatchObject({ ok: true, value: { status: 'stopped', stop_reason: 'user' } });
    expect((await cachedSessions.getValue())?.data).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('');
  });

  it('session.stopAll also stops a running session older than a page of newer stopped ones', async () => {
    const old = service.startSession('prf_1');
    for (let index = 0; index < 120; index++) service.stopSession(service.startSession('prf_2').id, 'user');
    const reply = await send({ type: 'session.stopAll' });
    expect(reply?.ok && reply.value.stopped.map((s) => s.id)).toEqual([old.id]);
    expect(service.sessions.get(old.id)?.status).toBe('stopped');
  });

  it('session.stopAll stops every running session, including one started elsewhere', async () => {
    await send({ type: 'session.start', profileId: 'prf_1' });
    service.startSession('prf_2');
    const reply = await send({ type: 'session.stopAll' });
    expect(reply?.ok && reply.value.stopped.map((s) => s.profile_id).sort()).toEqual(['prf_1', 'prf_2']);
    expect(reply?.ok && reply.value.failed).toEqual([]);
    expect([...service.sessions.values()].every((s) => s.status === 'stopped')).toBe(true);
  });

  it('run.start queues the script, remembers it, and follows the run', async () => {
    const reply = await send({ type: 'run.start', run: { profile_id: 'prf_2', script, name: 'Prices' } });
    expect(reply).toMatchObject({
      ok: true,
      value: { phase: 'watching', run: { status: 'queued', name: 'Prices' } },
    });
    expect(await lastRun.getValue()).toEqual({ profile_id: 'prf_2', script, name: 'Prices' });
    expect(await lastProfile.getValue()).toEqual({ id: 'prf_2', name: 'Mail' });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent(service).at(-1)).toMatch(/status\?run_id=run_\d+&wait=25&after_version=1$/);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('…');
  });

  it('watch.cancel stops following a run', async () => {
    const started = await send({ type: 'run.start', run: { profile_id: 'prf_1', script } });
    const runId = started?.ok ? started.value.run.id : '';
    expect(await send({ type: 'watch.cancel', runId })).toEqual({ ok: true, value: { cancelled: true } });
    expect(await watchedRuns.getValue()).toEqual([]);
  });

  it('state.read reconciles the sessions, marks ended runs as seen, and answers with the state', async () => {
    const failed = service.updateRun(service.createRun('prf_1').id, { status: 'failed', error: 'Boom.' });
    await watchedRuns.setValue([
      {
        run: failed,
        phase: 'ended',
        since: START,
        endedAt: START,
        notified: true,
        seen: false,
        message: null,
      },
    ]);
    await vi.advanceTimersByTimeAsync(0);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('!');
    const session = service.startSession('prf_1');
    vi.setSystemTime(START + 60_000);
    const reply = await send({ type: 'state.read', seen: true });
    expect(reply).toMatchObject({
      ok: true,
      value: { sessions: [{ id: session.id }], runs: [{ seen: true }], quota: { limit: 100 }, error: null },
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('1');
  });

  it('state.read still answers with what it knows when the service cannot be reached', async () => {
    service.outage = 0;
    vi.setSystemTime(START + 60_000);
    const reply = send({ type: 'state.read' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await reply).toMatchObject({
      ok: true,
      value: {
        sessions: [],
        error: 'The service at http://127.0.0.1:8787 cannot be reached. Is it running?',
      },
    });
  });

  it('answers that an API key is needed when none is set', async () => {
    await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: null });
    const reply = await send({ type: 'session.start', profileId: 'prf_1' });
    expect(reply).toEqual({
      ok: false,
      error: { code: 'no_key', message: getMessage('noKey'), status: 0, retryAfter: null, fieldErrors: [] },
    });
  });

  it('rejects a malformed message with a sentence, without calling the service', async () => {
    const before = service.requests.length;
    const missing = await deliver({ type: 'session.start' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_message' } });
    expect(missing?.ok === false && missing.error.message).toContain('profileId');
    expect(await deliver({ type: 'profiles.delete', id: 'prf_1' })).toMatchObject({ ok: false });
    expect(await deliver({ type: 'session.stop', profileId: 'prf_1', force: true })).toMatchObject({
      ok: false,
    });
    expect(service.requests.length).toBe(before);
  });

  it('ignores messages that do not come from the extension’s own pages', async () => {
    const before = service.requests.length;
    const stopAll = { type: 'session.stopAll' };
    expect(
      await deliver(stopAll, { id: POPUP.id, url: 'https://example.com/page', tab: { id: 3 } }),
    ).toBeUndefined();
    expect(await deliver(stopAll, { id: 'another-extension', url: POPUP.url })).toBeUndefined();
    expect(await deliver(stopAll, {})).toBeUndefined();
    expect(service.requests.length).toBe(before);
  });
});
