import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { inTurn } from '../../../entrypoints/background/in-turn';
import { forgetProfile } from '../../../entrypoints/background/lists';
import { createSessions, START_WAIT_S } from '../../../entrypoints/background/sessions';
import type { ApiClient } from '../../../lib/api/client';
import type { Session, SessionStartWaiting } from '../../../lib/api/schemas/sessions';
import { cachedProfiles, cachedSessions, waitingStarts } from '../../../lib/storage';
import { profile, session } from '../popup/harness';

const started = session('ses_1', 'prf_1');

/** A client whose start answers `started` when the test says so. */
function clientAnsweringOnCue() {
  let answer: (value: Session) => void = () => undefined;
  const answered = new Promise<Session>((resolve) => (answer = resolve));
  const client = { startSessionInLine: () => answered } as unknown as ApiClient;
  return { client, answer: () => answer(started) };
}

beforeEach(() => fakeBrowser.reset());

const inLine: SessionStartWaiting = {
  profile_id: 'prf_1',
  status: 'waiting',
  detail: 'No room came within 20 s.',
};

/** The worker's sessions on a service with no free browser now: each start answers its place in line. */
function noRoom() {
  const asked: unknown[] = [];
  const client = {
    startSessionInLine: async (body: unknown) => {
      asked.push(body);
      return inLine;
    },
  } as unknown as ApiClient;
  const sessions = createSessions({ api: async () => client, now: () => 0, onExited: async () => {} });
  return { sessions, asked };
}

describe('the worker’s sessions', () => {
  it('keeps the DevTools address a start answered when the running event was read before that answer was saved', async () => {
    const { client, answer } = clientAnsweringOnCue();
    const sessions = createSessions({ api: async () => client, now: () => 0, onExited: async () => {} });
    // Hold the worker's writes, so that the start's answer is saved only after the event has looked at the cache.
    let release: () => void = () => undefined;
    const held = inTurn(() => new Promise<void>((resolve) => (release = resolve)));
    const starting = sessions.start('prf_1');
    answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const applying = sessions.apply({ ...started, cdp_url: null });
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    await Promise.all([held, starting, applying]);
    expect((await cachedSessions.getValue())?.data).toEqual([started]);
  });

  it('marks a profile just started as used then, before its list is read again', async () => {
    await cachedProfiles.setValue({ data: [profile('prf_1', 'Shop')], savedAt: 1 });
    const client = { startSessionInLine: async () => started } as unknown as ApiClient;
    const sessions = createSessions({ api: async () => client, now: () => 0, onExited: async () => {} });
    await sessions.start('prf_1');
    expect((await cachedProfiles.getValue())?.data[0]).toMatchObject({
      status: 'running',
      last_used_at: started.started_at,
    });
  });

  it('reads the list again, however fresh, when a session in it is known from an event only (no DevTools address)', async () => {
    // Read the list a moment ago; then a session another program started was heard of on the event stream.
    await cachedSessions.setValue({ data: [], savedAt: 1_000 });
    const client = {
      listSessions: async () => ({ data: [started], next_cursor: null }),
    } as unknown as ApiClient;
    const sessions = createSessions({ api: async () => client, now: () => 2_000, onExited: async () => {} });
    await sessions.apply({ ...started, cdp_url: null });
    expect(await sessions.reconcile(10_000)).toEqual([started]);
    expect((await cachedSessions.getValue())?.data).toEqual([started]);
    // Now the cache is fresh and whole: no request.
    client.listSessions = async () => {
      throw new Error('read again');
    };
    expect(await sessions.reconcile(10_000)).toEqual([started]);
  });

  it('marks a profile whose start waits in line for a free browser, and shows it running once its session’s event comes', async () => {
    await cachedProfiles.setValue({ data: [profile('prf_1', 'Shop')], savedAt: 1 });
    const { sessions, asked } = noRoom();
    expect(await sessions.start('prf_1')).toEqual(inLine);
    expect(asked).toEqual([{ profile_id: 'prf_1', wait: START_WAIT_S }]);
    expect(await waitingStarts.getValue()).toEqual({ prf_1: new Date(0).toISOString() });
    expect((await cachedProfiles.getValue())?.data[0]?.status).toBe('idle');

    await sessions.apply({ ...started, cdp_url: null });
    expect(await waitingStarts.getValue()).toEqual({});
    expect((await cachedProfiles.getValue())?.data[0]).toMatchObject({
      status: 'running',
      session_id: 'ses_1',
    });
  });

  it('forgets a waiting start once its session failed, or once its profile was deleted', async () => {
    const { sessions } = noRoom();
    await sessions.start('prf_1');
    await sessions.apply({ ...started, status: 'failed', error: 'The browser exited.' });
    expect(await waitingStarts.getValue()).toEqual({});
    await sessions.start('prf_1');
    await forgetProfile('prf_1');
    expect(await waitingStarts.getValue()).toEqual({});
  });

  it('leaves a profile running, not waiting, when its session’s event came before the start’s answer of waiting', async () => {
    const { sessions } = noRoom();
    await sessions.apply(started);
    await sessions.start('prf_1');
    expect(await waitingStarts.getValue()).toEqual({});
  });
});
