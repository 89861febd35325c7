/**
 * The worker against the real service: the background's own message handlers, watcher and notifications
 * (in WXT's fakeBrowser, real timers, real fetch), a real Chromium per session.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import background from '../../entrypoints/background';
import { createClient, type Profile } from '../../lib/api';
import type { Intent, IntentReplies, Reply } from '../../lib/messaging';
import { cachedSessions, connection, type WatchedRun, watchedRuns } from '../../lib/storage';
import type { TestService } from '../support/harness';
import { startServiceInProcess } from '../support/in-process-service';
import { installBrowser, POPUP } from '../unit/background/browser-stubs';

const PAGE = '<!doctype html><title>Worker test page</title><h1 id="greeting">Hello, worker</h1>';

let service: TestService;
let site: Server;
let origin: string;
let profile: Profile;
let second: Profile;

async function send<I extends Intent>(intent: I): Promise<Reply<IntentReplies[I['type']]>> {
  const [reply] = await fakeBrowser.runtime.onMessage.trigger(intent, POPUP);
  return reply as unknown as Reply<IntentReplies[I['type']]>;
}

async function waitFor<T>(read: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  site = createServer((_request, response) => response.setHeader('Content-Type', 'text/html').end(PAGE));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // The site listens on loopback, which sessions reach only when the operator allows it. One browser at a time:
  // a second start waits in line for it.
  service = await startServiceInProcess({ env: { EGRESS_ALLOW: 'loopback', MAX_BROWSERS: '1' } });
  const key = await service.createKey('enterprise');
  const api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  profile = await api.createProfile({ name: 'Worker test' });
  second = await api.createProfile({ name: 'Second in line' });
  installBrowser();
  await connection.setValue({ serviceUrl: service.baseUrl, apiKey: key });
  background.main();
});

afterAll(async () => {
  await send({ type: 'session.stopAll' }).catch(() => undefined);
  await service?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

describe('the worker with the real service', () => {
  beforeEach(async () => {
    await watchedRuns.setValue([]);
  });

  it('starts and stops a profile’s browser', async () => {
    const started = await send({ type: 'session.start', profileId: profile.id, headless: true });
    expect(started).toMatchObject({ ok: true, value: { profile_id: profile.id, status: 'running' } });
    expect(started.ok && 'cdp_url' in started.value && started.value.cdp_url).toMatch(
      /^ws:\/\/127\.0\.0\.1:\d+\/v1\/sessions\/ses_\w+\/cdp\//,
    );
    expect((await cachedSessions.getValue())?.data.map((s) => s.profile_id)).toEqual([profile.id]);

    const again = await send({ type: 'session.start', profileId: profile.id, headless: true });
    expect(again).toMatchObject({ ok: false, error: { code: 'session_exists', status: 409 } });

    const state = await send({ type: 'sessions.refresh' });
    expect(state.ok && state.value.map((s) => s.profile_id)).toEqual([profile.id]);

    const stopped = await send({ type: 'session.stop', profileId: profile.id });
    expect(stopped).toMatchObject({ ok: true, value: { status: 'stopped', stop_reason: 'user' } });
    expect((await cachedSessions.getValue())?.data).toEqual([]);
  });

  it('starts a profile with no browser free once one is, instead of failing', async () => {
    await send({ type: 'session.start', profileId: profile.id, headless: true });
    // Sent first, the second start finds no room (at once) well before the first browser is closed (a second).
    const inLine = send({ type: 'session.start', profileId: second.id, headless: true });
    await send({ type: 'session.stop', profileId: profile.id });
    expect(await inLine).toMatchObject({ ok: true, value: { profile_id: second.id, status: 'running' } });
    expect((await cachedSessions.getValue())?.data.map((s) => s.profile_id)).toEqual([second.id]);
    await send({ type: 'session.stop', profileId: second.id });
  });

  it('runs a script and follows it to its end, announcing the result', async () => {
    const script = {
      steps: [
        { action: 'goto' as const, url: `${origin}/` },
        { action: 'extract' as const, selector: '#greeting', name: 'greeting' },
        { action: 'evaluate' as const, expression: 'document.title', name: 'title' },
      ],
    };
    const started = await send({
      type: 'run.start',
      run: { profile_id: profile.id, script, name: 'Greeting' },
    });
    expect(started).toMatchObject({ ok: true, value: { phase: 'watching', run: { name: 'Greeting' } } });
    const runId = started.ok ? started.value.run.id : '';

    const ended = await waitFor<WatchedRun>(async () => {
      const entry = (await watchedRuns.getValue()).find((e) => e.run.id === runId);
      return entry?.phase === 'watching' || !entry?.notified ? undefined : entry;
    });
    expect(ended.run).toMatchObject({
      status: 'succeeded',
      output: { greeting: 'Hello, worker', title: 'Worker test page' },
    });
    const notifications = (await fakeBrowser.notifications.getAll()) as Record<
      string,
      { title: string; message: string }
    >;
    expect(notifications[`#/runs/${runId}`]).toMatchObject({ title: 'Greeting succeeded' });
    const message = notifications[`#/runs/${runId}`]?.message;
    expect(message).toMatch(/^Took \d+ s\.\n/);
    expect(message).toContain('greeting: Hello, worker');
    expect(message).toContain('title: Worker test page');
    // Nothing followed any more: no alarm left.
    await waitFor(async () => ((await fakeBrowser.alarms.getAll()).length === 0 ? true : undefined), 5_000);
  });

  it('answers a run of an unknown profile with the service’s sentence', async () => {
    const reply = await send({
      type: 'run.start',
      run: { profile_id: 'prf_unknown', script: { steps: [{ action: 'goto', url: 'about:blank' }] } },
    });
    expect(reply).toMatchObject({ ok: false, error: { status: 404 } });
    expect(reply.ok === false && reply.error.message).toMatch(/\.$/);
  });
});
