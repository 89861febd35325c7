import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import {
  cachedSessions,
  connection,
  DEFAULT_SERVICE_URL,
  lastRun,
  pendingView,
  preferences,
  quota,
  watchedRuns,
} from '../../../lib/storage';
import { defineItem } from '../../../lib/storage/item';

beforeEach(() => {
  fakeBrowser.reset();
});

describe('storage items', () => {
  it('start from their defaults: the local service and no key', async () => {
    expect(DEFAULT_SERVICE_URL).toBe('http://127.0.0.1:8787');
    expect(await connection.getValue()).toEqual({ serviceUrl: DEFAULT_SERVICE_URL, apiKey: null });
    expect(await preferences.getValue()).toEqual({
      notifyRuns: true,
      notifySessionExits: true,
      headless: false,
    });
    expect(await watchedRuns.getValue()).toEqual([]);
    for (const item of [cachedSessions, quota, lastRun, pendingView])
      expect(await item.getValue()).toBeNull();
  });

  it('keep the key in local storage, never in sync storage', async () => {
    await connection.setValue({ serviceUrl: 'https://pilot.example.com', apiKey: 'pk_secret' });
    expect(await fakeBrowser.storage.local.get('connection')).toEqual({
      connection: { serviceUrl: 'https://pilot.example.com', apiKey: 'pk_secret' },
    });
    expect(await fakeBrowser.storage.sync.get()).toEqual({});
  });

  it('keep the view a notification asks for only for the browser session', async () => {
    await pendingView.setValue('#/runs/run_1');
    expect(await fakeBrowser.storage.session.get('pendingView')).toEqual({ pendingView: '#/runs/run_1' });
    expect(await fakeBrowser.storage.local.get('pendingView')).toEqual({});
  });
});

describe('an item', () => {
  const runs = defineItem<string[]>('local:runs', []);

  it('reads what an installed extension stored under its key, and null removes it', async () => {
    await fakeBrowser.storage.local.set({ runs: ['run_1'] });
    expect(await runs.getValue()).toEqual(['run_1']);
    const seen = defineItem<string | null>('session:seen', null);
    await seen.setValue('run_1');
    await seen.setValue(null);
    expect(await fakeBrowser.storage.session.get()).toEqual({});
    expect(await seen.getValue()).toBeNull();
  });

  it('tells its watchers of each new value, the fallback once removed, and not of equal writes or other keys', async () => {
    const heard = vi.fn();
    const unwatch = runs.watch(heard);
    await runs.setValue(['run_1']);
    await runs.setValue(['run_1']);
    await fakeBrowser.storage.local.set({ other: ['run_2'] });
    await fakeBrowser.storage.session.set({ runs: ['run_3'] });
    await fakeBrowser.storage.local.remove('runs');
    unwatch();
    await runs.setValue(['run_4']);
    expect(heard.mock.calls).toEqual([[['run_1']], [[]]]);
  });
});
