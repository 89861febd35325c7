import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import background from '../../../entrypoints/background';
import type { Intent, IntentReplies, Reply } from '../../../lib/messaging';
import {
  cachedProfiles,
  cachedProxies,
  cachedSessions,
  cachedTags,
  connection,
  lastProfile,
  lastRun,
  pendingView,
  plan,
  preferences,
  quota,
  savedScripts,
  waitingStarts,
  watchedRuns,
} from '../../../lib/storage';
import { type FakeService, SESSION_EXISTS_DETAIL } from '../../support/fake-service';
import { profile, proxy, session } from '../popup/harness';
import { getMessage, installBrowser, installService, POPUP, sent } from './browser-stubs';

const START = Date.UTC(2025, 0, 6, 9);
const script = { steps: [{ action: 'goto' as const, url: 'https://example.com' }] };
let service: FakeService;

/** The account GET /v1/account answers for the saved key. */
const LOCAL_ACCOUNT = {
  id: 'acc_1',
  name: 'Local',
  plan: 'free',
  hourly_limit: 100,
  session_limit: 2,
  key_prefix: 'pp',
  created_at: '',
};

/** Delivers a message as the browser would, and resolves with the worker's answer (if it gave one). */
async function deliver(message: unknown, sender: object = POPUP): Promise<Reply<unknown> | undefined> {
  const [reply] = await fakeBrowser.runtime.onMessage.trigger(message, sender);
  return reply as Reply<unknown> | undefined;
}

function send<I extends Intent>(intent: I): Promise<Reply<IntentReplies[I['type']]> | undefined> {
  return deliver(intent) as Promise<Reply<IntentReplies[I['type']]> | undefined>;
}

/**
 * Answers one endpoint the fake service does not model (profiles, proxies, the account, cancelling), and leaves
 * every other request to it. Records each body sent there.
 */
function answer(method: string, path: string, respond: (body: unknown) => Response): unknown[] {
  const bodies: unknown[] = [];
  const next = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    if ((init?.method ?? 'GET') !== method || url.pathname !== path) return next(input, init);
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    bodies.push(body);
    return respond(body);
  });
  return bodies;
}

/** Answers GET /v1/profiles with what `page` makes of its query string; gives the query strings asked. */
function answerProfiles(page: (query: string) => object | undefined | Promise<object | undefined>): string[] {
  const asked: string[] = [];
  const next = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    if (url.pathname !== '/v1/profiles' || (init?.method ?? 'GET') !== 'GET') return next(input, init);
    asked.push(url.search.slice(1));
    const body = await page(url.search.slice(1));
    return body ? Response.json(body) : new Response(null, { status: 500 });
  });
  return asked;
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
  vi.unstubAllGlobals();
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

  it('puts Open in a tab in the toolbar button’s menu on install, which opens the manager', async () => {
    const stubs = installBrowser();
    const opened = vi.spyOn(fakeBrowser.tabs, 'create');
    background.main();
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install', temporary: false });
    expect(stubs.createMenuItem).toHaveBeenCalledWith({
      id: 'open-manager',
      title: 'Open in a tab',
      contexts: ['action'],
    });
    await stubs.onMenuClicked.trigger({ menuItemId: 'open-manager' });
    expect(opened).toHaveBeenCalledWith({ url: 'chrome-extension://test-extension-id/manager.html' });
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
    expect(JSON.parse(service.requests.at(-1)?.body ?? '')).toEqual({
      profile_id: 'prf_1',
      headless: true,
      wait: 20,
    });
    expect((await cachedSessions.getValue())?.data).toHaveLength(1);
    expect(await lastProfile.getValue()).toEqual({ id: 'prf_1', name: 'Shop' });
    await vi.advanceTimersByTimeAsync(0);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('1');
  });

  it('session.start leaves the window to the service unless the person chose headless', async () => {
    await send({ type: 'session.start', profileId: 'prf_1' });
    expect(JSON.parse(service.requests.at(-1)?.body ?? '')).toEqual({ profile_id: 'prf_1', wait: 20 });
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

  it('profiles.bulk start marks the profiles that wait in line for a free browser, not those started', async () => {
    const item = (id: string, more: object) => ({ id, ok: true, ...more });
    answer('POST', '/v1/profiles/bulk', () =>
      Response.json({
        action: 'start',
        selected: 2,
        succeeded: 2,
        failed: 0,
        waiting: 1,
        problems: [],
        items: [item('prf_1', { session_id: 'ses_9' }), item('prf_2', { waiting: true })],
      }),
    );
    const request = { select: { ids: ['prf_1', 'prf_2'] }, action: 'start' as const };
    expect(await send({ type: 'profiles.bulk', request })).toMatchObject({ ok: true, value: { waiting: 1 } });
    expect(await waitingStarts.getValue()).toEqual({ prf_2: new Date(START).toISOString() });
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

  it('run.cancel asks the service to cancel the run, and the watcher sees it end', async () => {
    const started = await send({ type: 'run.start', run: { profile_id: 'prf_1', script } });
    const runId = started?.ok ? started.value.run.id : '';
    answer('POST', `/v1/automation/runs/${runId}/cancel`, () => {
      service.updateRun(runId, { status: 'cancelled' });
      return Response.json(service.runs.get(runId));
    });
    const reply = await send({ type: 'run.cancel', runId });
    expect(reply).toMatchObject({ ok: true, value: { id: runId, status: 'cancelled' } });
    await vi.advanceTimersByTimeAsync(0);
    expect((await watchedRuns.getValue())[0]).toMatchObject({ phase: 'ended', run: { status: 'cancelled' } });
  });

  it('runs.seen marks ended runs as seen; sessions.refresh reconciles the sessions and answers them', async () => {
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
    expect(await send({ type: 'runs.seen' })).toEqual({ ok: true, value: undefined });
    expect(await watchedRuns.getValue()).toMatchObject([{ seen: true }]);
    answer('GET', '/v1/account', () => Response.json(LOCAL_ACCOUNT));
    const reply = await send({ type: 'sessions.refresh' });
    expect(reply).toMatchObject({ ok: true, value: [{ id: session.id }] });
    expect((await cachedSessions.getValue())?.data.map((s) => s.id)).toEqual([session.id]);
    expect(await quota.getValue()).toMatchObject({ limit: 100 });
    await vi.advanceTimersByTimeAsync(0);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('1');
    // The plan's limits, not known yet, were read once with it, for the warnings of bulk actions.
    expect(await plan.getValue()).toEqual({
      name: 'free',
      hourlyLimit: 100,
      sessionLimit: 2,
      workspace: 'Local',
    });
    // Read again when the popup opens half a minute later, not sooner: an owner may have changed the role since.
    const asked = answer('GET', '/v1/account', () =>
      Response.json({ ...LOCAL_ACCOUNT, member: { id: 'mem_1', name: 'Eve' }, role: 'viewer' }),
    );
    vi.setSystemTime(START + 80_000);
    await send({ type: 'sessions.refresh' });
    expect(asked).toHaveLength(0);
    vi.setSystemTime(START + 91_000);
    await send({ type: 'sessions.refresh' });
    expect(asked).toHaveLength(1);
    expect(await plan.getValue()).toMatchObject({ member: { name: 'Eve' }, role: 'viewer' });
  });

  it('sessions.refresh says in a sentence why the service cannot be reached, keeping what it knew', async () => {
    const known = session('ses_known', 'prf_1');
    await cachedSessions.setValue({ data: [known], savedAt: START });
    service.outage = 0;
    vi.setSystemTime(START + 60_000);
    const reply = send({ type: 'sessions.refresh' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await reply).toMatchObject({
      ok: false,
      error: { message: 'The service at http://127.0.0.1:8787 cannot be reached. Is it running?' },
    });
    expect((await cachedSessions.getValue())?.data).toEqual([known]);
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

describe('intents that change the lists and settings', () => {
  beforeEach(async () => {
    await cachedSessions.setValue({ data: [], savedAt: START });
    await startWorker();
  });

  it('proxy.check puts the result in the cached proxy as its last check; proxy.delete takes the proxy out', async () => {
    const works = {
      ok: true,
      ip: '203.0.113.9',
      country: 'JP',
      city: 'Tokyo',
      timezone: 'Asia/Tokyo',
      took_ms: 40,
    };
    await cachedProxies.setValue({
      data: [proxy('prx_1', 'Office'), proxy('prx_2', 'Home')],
      savedAt: START,
    });
    answer('POST', '/v1/proxies/prx_1/check', () => Response.json(works));
    answer('DELETE', '/v1/proxies/prx_1', () => new Response(null, { status: 204 }));
    vi.setSystemTime(START + 7_000);
    expect(await send({ type: 'proxy.check', proxyId: 'prx_1' })).toEqual({ ok: true, value: works });
    const kept = (await cachedProxies.getValue())?.data;
    expect(kept?.map(({ last_check }) => last_check)).toEqual([
      { ...works, checked_at: new Date(START + 7_000).toISOString() },
      null,
    ]);
    expect(await send({ type: 'proxy.delete', proxyId: 'prx_1' })).toEqual({ ok: true, value: undefined });
    expect((await cachedProxies.getValue())?.data.map(({ id }) => id)).toEqual(['prx_2']);
  });

  it('proxies.search asks the service for q and the failing ones, and answers without caching', async () => {
    await cachedProxies.setValue({ data: [proxy('prx_1', 'Office')], savedAt: START });
    const asked: string[] = [];
    const next = globalThis.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      if (url.pathname !== '/v1/proxies') return next(input, init);
      asked.push(url.search);
      return Response.json({ data: [proxy('prx_7', 'Berlin')], next_cursor: null });
    });
    const reply = await send({ type: 'proxies.search', q: ' berlin ', failing: true });
    expect(reply).toEqual({ ok: true, value: [proxy('prx_7', 'Berlin')] });
    expect(asked).toEqual(['?limit=100&q=berlin&status=failing']);
    expect((await cachedProxies.getValue())?.data.map(({ id }) => id)).toEqual(['prx_1']);
  });

  it('profiles.refresh reads the first page and its total; proxies.refresh the whole list; profiles.tags every tag; dated now', async () => {
    const asked = answerProfiles(() => ({ data: [profile('prf_9', 'New')], next_cursor: 'c2', total: 51 }));
    answer('GET', '/v1/proxies', () =>
      Response.json({ data: [proxy('prx_1', 'Office')], next_cursor: null }),
    );
    const tags = [{ tag: 'vip', count: 40 }];
    answer('GET', '/v1/profiles/tags', () => Response.json({ data: tags, next_cursor: null }));
    vi.setSystemTime(START + 5_000);
    expect(await send({ type: 'profiles.refresh' })).toEqual({ ok: true, value: undefined });
    expect(await send({ type: 'proxies.refresh' })).toEqual({ ok: true, value: undefined });
    expect(await send({ type: 'profiles.tags' })).toEqual({ ok: true, value: undefined });
    expect(await cachedTags.getValue()).toEqual({ data: tags, savedAt: START + 5_000 });
    expect(asked).toEqual(['limit=50&total=true']);
    expect(await cachedProfiles.getValue()).toEqual({
      data: [profile('prf_9', 'New')],
      filter: {},
      next_cursor: 'c2',
      total: 51,
      savedAt: START + 5_000,
    });
    expect(await cachedProxies.getValue()).toEqual({
      data: [proxy('prx_1', 'Office')],
      savedAt: START + 5_000,
    });
  });

  it('profiles.refresh searches on the service, keeps the filter, and profiles.more adds the next page in the same order', async () => {
    const pages: Record<string, object> = {
      'limit=50&q=shop&tag=eu&status=idle&sort=name&total=true': {
        data: [profile('prf_1', 'Shop 1')],
        next_cursor: 'c2',
        total: 2,
      },
      'limit=50&q=shop&tag=eu&status=idle&sort=name&cursor=c2': {
        data: [profile('prf_2', 'Shop 2')],
        next_cursor: null,
      },
    };
    const asked = answerProfiles((query) => pages[query]);
    await send({
      type: 'profiles.refresh',
      filter: { q: ' shop ', tag: 'eu', status: 'idle', sort: 'name' },
    });
    await send({ type: 'profiles.more' });
    // Nothing more to read: no request.
    await send({ type: 'profiles.more' });
    expect(asked).toEqual(Object.keys(pages));
    expect(await cachedProfiles.getValue()).toMatchObject({
      data: [profile('prf_1', 'Shop 1'), profile('prf_2', 'Shop 2')],
      filter: { q: ' shop ', tag: 'eu', status: 'idle', sort: 'name' },
      next_cursor: null,
      total: 2,
    });
    // Refreshed without a filter (as when the popup opens), the list is read with the kept one.
    await send({ type: 'profiles.refresh' });
    expect(asked.at(-1)).toBe('limit=50&q=shop&tag=eu&status=idle&sort=name&total=true');
  });

  it('an older search answered after a newer one does not overwrite it', async () => {
    let release = () => {};
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    answerProfiles(async (query) => {
      if (query.includes('q=old')) await slow;
      return {
        data: [profile('prf_1', query.includes('q=old') ? 'Old' : 'New')],
        next_cursor: null,
        total: 1,
      };
    });
    const older = send({ type: 'profiles.refresh', filter: { q: 'old' } });
    await send({ type: 'profiles.refresh', filter: { q: 'new' } });
    release();
    await older;
    expect(await cachedProfiles.getValue()).toMatchObject({ filter: { q: 'new' }, data: [{ name: 'New' }] });
  });

  it('profile.create puts the new profile first; the list keeps the time it was read whole', async () => {
    const bodies = answer('POST', '/v1/profiles', () =>
      Response.json(profile('prf_9', 'New'), { status: 201 }),
    );
    const reply = await send({ type: 'profile.create', profile: { name: 'New', tags: ['eu'] } });
    expect(reply).toMatchObject({ ok: true, value: { id: 'prf_9' } });
    expect(bodies).toEqual([{ name: 'New', tags: ['eu'] }]);
    expect(await cachedProfiles.getValue()).toEqual({
      data: [profile('prf_9', 'New'), profile('prf_1', 'Shop'), profile('prf_2', 'Mail')],
      savedAt: START,
    });
  });

  it('profile.create, profile.clone and profile.delete keep the list’s filter and cursor and count with the total', async () => {
    await cachedProfiles.setValue({
      data: [profile('prf_1', 'Shop'), profile('prf_2', 'Mail')],
      filter: { tag: 'eu' },
      next_cursor: 'c2',
      total: 60,
      savedAt: START,
    });
    answer('POST', '/v1/profiles', () => Response.json(profile('prf_9', 'New'), { status: 201 }));
    answer('POST', '/v1/profiles/prf_1/clone', () =>
      Response.json(profile('prf_8', 'Shop (copy)'), { status: 201 }),
    );
    answer('DELETE', '/v1/profiles/prf_2', () => new Response(null, { status: 204 }));
    await send({ type: 'profile.create', profile: { name: 'New' } });
    await send({ type: 'profile.clone', profileId: 'prf_1' });
    await send({ type: 'profile.delete', profileId: 'prf_2', force: false });
    expect(await cachedProfiles.getValue()).toMatchObject({
      data: [{ id: 'prf_8' }, { id: 'prf_9' }, { id: 'prf_1' }],
      filter: { tag: 'eu' },
      next_cursor: 'c2',
      total: 61,
    });
  });

  it('profile.create and session.start at once both land in the cached profiles', async () => {
    answer('POST', '/v1/profiles', () => Response.json(profile('prf_9', 'New'), { status: 201 }));
    await Promise.all([
      send({ type: 'profile.create', profile: { name: 'New' } }),
      send({ type: 'session.start', profileId: 'prf_1' }),
    ]);
    const profiles = (await cachedProfiles.getValue())?.data.map((p) => [p.id, p.status]);
    expect(profiles).toEqual([
      ['prf_9', 'idle'],
      ['prf_1', 'running'],
      ['prf_2', 'idle'],
    ]);
  });

  it('profile.delete deletes it (with force when asked) and takes it and its sessions out of the caches', async () => {
    await send({ type: 'session.start', profileId: 'prf_2' });
    answer('DELETE', '/v1/profiles/prf_2', () => new Response(null, { status: 204 }));
    expect(await send({ type: 'profile.delete', profileId: 'prf_2', force: true })).toMatchObject({
      ok: true,
    });
    expect((await cachedProfiles.getValue())?.data.map((p) => p.id)).toEqual(['prf_1']);
    expect((await cachedSessions.getValue())?.data).toEqual([]);
  });

  it('profile.delete reports a running profile as the service says it, changing nothing', async () => {
    answer('DELETE', '/v1/profiles/prf_2', () =>
      Response.json(
        {
          type: 'about:blank',
          title: 'Conflict',
          status: 409,
          code: 'profile_running',
          detail: 'Stop it first.',
        },
        { status: 409, headers: { 'Content-Type': 'application/problem+json' } },
      ),
    );
    const reply = await send({ type: 'profile.delete', profileId: 'prf_2', force: false });
    expect(reply).toMatchObject({ ok: false, error: { code: 'profile_running', status: 409 } });
    expect((await cachedProfiles.getValue())?.data.map((p) => p.id)).toEqual(['prf_1', 'prf_2']);
  });

  it('proxies.paste sends a part of a pasted list in one request and sums it up with the parts before', async () => {
    const items = [
      { ok: true, id: 'prx_9', name: 'h.example:1', known: false },
      { ok: true, id: 'prx_1', name: 'Office', known: true },
      {
        ok: false,
        problem: { status: 422, code: 'validation_failed', detail: 'Not a proxy: must be host:port.' },
      },
    ];
    const sent = answer('POST', '/v1/proxies/paste', () =>
      Response.json({ added: 1, known: 1, refused: 1, items }),
    );
    const lines = [
      { line: 229, text: 'h.example:1' },
      { line: 230, text: 'office.example:2' },
      { line: 231, text: 'nope' },
    ];
    const before = {
      added: 227,
      known: 2,
      refused: [{ line: 17, text: 'x', reason: 'Not a proxy: must be host:port.' }],
    };
    const reply = await send({ type: 'proxies.paste', lines, tally: before });
    expect(sent).toEqual([{ lines: ['h.example:1', 'office.example:2', 'nope'] }]);
    expect(reply).toMatchObject({
      ok: true,
      value: {
        tally: { added: 228, known: 3, refused: [{ line: 17 }, { line: 231, text: 'nope' }] },
        summary:
          '228 added, 3 already saved, 2 refused: lines 17 and 231.\nLine 17: not added: Not a proxy: must be host:port.\nLine 231: not added: Not a proxy: must be host:port.',
      },
    });
  });

  it('proxy.save creates a proxy, or changes the one it names, first in the cached list', async () => {
    await cachedProxies.setValue({ data: [proxy('prx_1', 'Office'), proxy('prx_2', 'Lab')], savedAt: START });
    const created = answer('POST', '/v1/proxies', () =>
      Response.json(proxy('prx_3', 'New'), { status: 201 }),
    );
    const changed = answer('PUT', '/v1/proxies/prx_2', () => Response.json(proxy('prx_2', 'Lab 2')));
    const body = { name: 'New', scheme: 'http' as const, host: '10.0.0.9', port: 8080 };
    expect(await send({ type: 'proxy.save', proxy: body })).toMatchObject({
      ok: true,
      value: { id: 'prx_3' },
    });
    const update = { ...body, name: 'Lab 2' };
    expect(await send({ type: 'proxy.save', proxyId: 'prx_2', proxy: update })).toMatchObject({ ok: true });
    expect([created, changed]).toEqual([[body], [update]]);
    expect(await cachedProxies.getValue()).toEqual({
      data: [proxy('prx_2', 'Lab 2'), proxy('prx_3', 'New'), proxy('prx_1', 'Office')],
      savedAt: START,
    });
  });

  it('connection.save checks the key with one request and saves it and the quota only when accepted', async () => {
    await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: null });
    const account = { ...LOCAL_ACCOUNT, member: { id: 'mem_1', name: 'Eve' }, role: 'runner' };
    answer('GET', '/v1/account', () =>
      Response.json(account, { headers: { 'RateLimit-Limit': '100', 'RateLimit-Remaining': '72' } }),
    );
    const reply = await send({
      type: 'connection.save',
      serviceUrl: 'http://127.0.0.1:9999',
      apiKey: 'pp_new',
    });
    expect(reply).toMatchObject({ ok: true, value: { account: { name: 'Local' }, quota: { limit: 100 } } });
    expect(await connection.getValue()).toEqual({ serviceUrl: 'http://127.0.0.1:9999', apiKey: 'pp_new' });
    expect(await quota.getValue()).toMatchObject({ limit: 100, remaining: 72 });
    // The workspace and the role the key acts with, for the popup to say and to offer only what it may do.
    expect(await plan.getValue()).toEqual({
      name: 'free',
      hourlyLimit: 100,
      sessionLimit: 2,
      workspace: 'Local',
      member: { id: 'mem_1', name: 'Eve' },
      role: 'runner',
    });
  });

  it('connection.save keeps the saved connection when the service refuses the key', async () => {
    answer('GET', '/v1/account', () =>
      Response.json(
        { type: 'about:blank', title: 'Unauthorized', status: 401, code: 'unauthorized', detail: 'Bad key.' },
        { status: 401, headers: { 'Content-Type': 'application/problem+json' } },
      ),
    );
    const reply = await send({
      type: 'connection.save',
      serviceUrl: 'http://127.0.0.1:8787',
      apiKey: 'pp_bad',
    });
    expect(reply).toMatchObject({ ok: false, error: { code: 'unauthorized', status: 401 } });
    expect(await connection.getValue()).toEqual({ serviceUrl: 'http://127.0.0.1:8787', apiKey: 'pk_test' });
  });

  it('connection.forgetKey forgets the key and keeps the address', async () => {
    expect(await send({ type: 'connection.forgetKey' })).toEqual({ ok: true, value: undefined });
    expect(await connection.getValue()).toEqual({ serviceUrl: 'http://127.0.0.1:8787', apiKey: null });
  });

  it('preference.set applies quick changes in order, so that none is lost', async () => {
    await Promise.all([
      send({ type: 'preference.set', name: 'headless', value: true }),
      send({ type: 'preference.set', name: 'notifyRuns', value: false }),
    ]);
    expect(await preferences.getValue()).toEqual({
      headless: true,
      notifyRuns: false,
      notifySessionExits: true,
    });
  });

  it('savedScript.set keeps a script by name and forgets it', async () => {
    await send({ type: 'savedScript.set', name: 'Open', script });
    await send({ type: 'savedScript.set', name: 'Other', script });
    expect(await savedScripts.getValue()).toEqual({ Open: script, Other: script });
    await send({ type: 'savedScript.set', name: 'Open', script: null });
    expect(await savedScripts.getValue()).toEqual({ Other: script });
  });

  it('pendingView.shown clears the view a notification asked for', async () => {
    await pendingView.setValue('#/runs/run_1');
    await send({ type: 'pendingView.shown' });
    expect(await pendingView.getValue()).toBeNull();
  });
});
