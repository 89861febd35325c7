import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { storage } from 'wxt/utils/storage';
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

describe('versions and migrations', () => {
  it('reads a value written today as version 1 when an item moves to version 2', async () => {
    // Today's shape, as an installed extension stored it.
    await preferences.setValue({ notifyRuns: false, notifySessionExits: true, headless: true });
    const migrate = vi.fn((v1: object) => ({ ...v1, sound: false }));
    const next = storage.defineItem('local:preferences', { version: 2, migrations: { 2: migrate } });
    expect(await next.getValue()).toEqual({
      notifyRuns: false,
      notifySessionExits: true,
      headless: true,
      sound: false,
    });
    expect(migrate).toHaveBeenCalledOnce();
    expect(await next.getMeta()).toEqual({ v: 2 });
    // Migrated once: a later start does not migrate again.
    const again = storage.defineItem('local:preferences', { version: 2, migrations: { 2: migrate } });
    await again.getValue();
    expect(migrate).toHaveBeenCalledOnce();
  });

  it('keeps a fresh install at the defaults, without running a migration', async () => {
    const migrate = vi.fn();
    const next = storage.defineItem('local:watchedRuns', {
      fallback: [],
      version: 2,
      migrations: { 2: migrate },
    });
    expect(await next.getValue()).toEqual([]);
    expect(migrate).not.toHaveBeenCalled();
  });
});
