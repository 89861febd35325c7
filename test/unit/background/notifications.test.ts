import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import {
  announceRun,
  announceSessionExit,
  openFromNotification,
} from '../../../entrypoints/background/notifications';
import { createSessions } from '../../../entrypoints/background/sessions';
import type { AutomationRun, Profile } from '../../../lib/api';
import { createClient } from '../../../lib/api';
import {
  cachedProfiles,
  cachedSessions,
  pendingView,
  preferences,
  type WatchedRun,
} from '../../../lib/storage';
import { installBrowser, installService } from './browser-stubs';

const AT = Date.UTC(2025, 0, 6, 9);
const iso = (ms: number) => new Date(AT + ms).toISOString();
let stubs: ReturnType<typeof installBrowser>;

function ended(patch: Partial<AutomationRun>, phase: WatchedRun['phase'] = 'ended'): WatchedRun {
  const run: AutomationRun = {
    id: 'run_1',
    profile_id: 'prf_1',
    session_id: null,
    name: 'Prices',
    status: 'succeeded',
    steps: [],
    output: {},
    error: null,
    version: 9,
    created_at: iso(0),
    started_at: iso(2_000),
    finished_at: iso(44_000),
    ...patch,
  };
  return { run, phase, since: AT, endedAt: AT, notified: false, seen: false, message: null };
}

async function shown() {
  return (await fakeBrowser.notifications.getAll()) as Record<
    string,
    { title: string; message: string; iconUrl: string }
  >;
}

beforeEach(async () => {
  stubs = installBrowser();
  await cachedProfiles.setValue({ data: [{ id: 'prf_1', name: 'Shop' } as Profile], savedAt: AT });
});

describe('run notifications', () => {
  it('a success: its name, how long it took, and its first outputs', async () => {
    const output = { title: 'Example Domain', price: 12.5, tags: ['a', 'b'], fourth: 'not shown' };
    await announceRun(ended({ output }));
    expect(await shown()).toEqual({
      '#/runs/run_1': {
        type: 'basic',
        iconUrl: 'chrome-extension://test-extension-id/icon/128.png',
        title: 'Prices succeeded',
        message: 'Took 42 s.\ntitle: Example Domain · price: 12.5 · tags: ["a","b"]',
      },
    });
  });

  it('clips long output values, and says when there are none', async () => {
    await announceRun(ended({ output: { text: 'x'.repeat(100) } }));
    expect((await shown())['#/runs/run_1']?.message).toBe(`Took 42 s.\ntext: ${'x'.repeat(39)}…`);
    await announceRun(ended({ finished_at: iso(187_000) }));
    expect((await shown())['#/runs/run_1']?.message).toBe('Took 3 min 5 s.\nNo output values.');
  });

  it('a failure: the run’s error, or else the failed step’s; an unnamed run is named by its profile', async () => {
    await announceRun(ended({ status: 'failed', error: 'Timed out waiting for #login.' }));
    expect((await shown())['#/runs/run_1']).toMatchObject({
      title: 'Prices failed',
      message: 'Took 42 s.\nTimed out waiting for #login.',
    });
    const steps = [{ index: 0, action: 'click', status: 'failed' as const, error: 'No element #buy.' }];
    await announceRun(ended({ status: 'failed', name: null, steps }));
    expect((await shown())['#/runs/run_1']).toMatchObject({
      title: 'Run on Shop failed',
      message: 'Took 42 s.\nNo element #buy.',
    });
    // A profile never listed here is named as the service names it.
    await announceRun(
      ended({ status: 'failed', name: null, profile_id: 'prf_2', profile_name: 'Scale 0500' }),
    );
    expect((await shown())['#/runs/run_1']?.title).toBe('Run on Scale 0500 failed');
  });

  it('a cancelled run, and one the service no longer knows', async () => {
    await announceRun(ended({ status: 'cancelled' }));
    expect((await shown())['#/runs/run_1']?.title).toBe('Prices was cancelled');
    await announceRun({ ...ended({ status: 'running' }, 'dropped'), message: 'That run no longer exists.' });
    expect((await shown())['#/runs/run_1']).toMatchObject({
      title: 'Stopped following Prices',
      message: 'That run no longer exists.',
    });
  });

  it('none when the person turned them off', async () => {
    await preferences.setValue({ notifyRuns: false, notifySessionExits: true, headless: false });
    await announceRun(ended({}));
    expect(await shown()).toEqual({});
  });
});

describe('a session’s browser exiting on its own', () => {
  it('is announced once, when the sessions are reconciled', async () => {
    vi.useFakeTimers({ now: AT });
    const service = installService({ plan: 'enterprise' });
    const session = service.startSession('prf_1');
    const sessions = createSessions({
      api: async () => createClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: 'k', fetch: service.fetch }),
      now: Date.now,
      onExited: announceSessionExit,
    });
    await sessions.reconcile();
    service.stopSession(session.id, 'browser_exited');
    const create = vi.spyOn(fakeBrowser.notifications, 'create');
    await sessions.reconcile();
    await sessions.reconcile();
    expect(create).toHaveBeenCalledOnce();
    expect((await shown())['#/profiles/prf_1']).toMatchObject({
      title: 'Shop: browser closed',
      message: 'The browser of Shop exited on its own, so its session has ended.',
    });
    expect((await cachedSessions.getValue())?.data).toEqual([]);
    vi.useRealTimers();
  });

  it('is not announced when the person turned it off, nor when the person stopped it', async () => {
    await preferences.setValue({ notifyRuns: true, notifySessionExits: false, headless: false });
    await announceSessionExit({ profile_id: 'prf_1' } as never);
    expect(await shown()).toEqual({});
  });
});

describe('clicking a notification', () => {
  it('opens the popup on that run, which counts as seen', async () => {
    const markSeen = vi.fn(async () => {});
    await fakeBrowser.notifications.create('#/runs/run_1', { type: 'basic', title: '', message: '' });
    await openFromNotification('#/runs/run_1', markSeen, vi.fn());
    expect(markSeen).toHaveBeenCalledWith('run_1');
    expect(stubs.openPopup).toHaveBeenCalledOnce();
    expect(await pendingView.getValue()).toBe('#/runs/run_1');
    expect(await shown()).toEqual({});
  });

  it('opens the same view in a tab where the popup cannot be opened', async () => {
    stubs.openPopup.mockRejectedValueOnce(new Error('no active browser window'));
    await openFromNotification('#/profiles/prf_1', vi.fn(), vi.fn());
    const tabs = await fakeBrowser.tabs.query({});
    expect(tabs.map((tab) => tab.url)).toContain(
      'chrome-extension://test-extension-id/popup.html#/profiles/prf_1',
    );
    expect(await pendingView.getValue()).toBeNull();
  });

  it('opens the options page for settings, or the options in a tab where the browser will not', async () => {
    await openFromNotification('#/settings', vi.fn(), vi.fn());
    expect(stubs.openOptionsPage).toHaveBeenCalledOnce();
    stubs.openOptionsPage.mockRejectedValueOnce(new Error('no options page'));
    await openFromNotification('#/settings', vi.fn(), vi.fn());
    expect(stubs.openPopup).not.toHaveBeenCalled();
    const tabs = await fakeBrowser.tabs.query({});
    expect(tabs.map((tab) => tab.url)).toContain('chrome-extension://test-extension-id/options.html');
  });
});
