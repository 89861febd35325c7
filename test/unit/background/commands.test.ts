import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import background from '../../../entrypoints/background';
import { COMMANDS } from '../../../entrypoints/background/commands';
import { cachedSessions, connection, lastProfile, lastRun, watchedRuns } from '../../../lib/storage';
import { type FakeService, SESSION_EXISTS_DETAIL } from '../../support/fake-service';
import { installBrowser, installService } from './browser-stubs';

const START = Date.UTC(2025, 0, 6, 9);
let stubs: ReturnType<typeof installBrowser>;
let service: FakeService;

/** Presses the shortcut and answers with the notification it left: [id, message]. */
async function press(command: string): Promise<[string, string] | undefined> {
  await fakeBrowser.notifications.clear('#/');
  await stubs.onCommand.trigger(command);
  await vi.advanceTimersByTimeAsync(0);
  const all = Object.entries(
    (await fakeBrowser.notifications.getAll()) as Record<string, { message: string }>,
  );
  const [id, options] = all.at(-1) ?? [];
  return id && options ? [id, options.message] : undefined;
}

beforeEach(async () => {
  vi.useFakeTimers({ now: START });
  stubs = installBrowser();
  service = installService({ plan: 'free' });
  await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: 'pk_test' });
  await cachedSessions.setValue({ data: [], savedAt: START });
  background.main();
  await vi.advanceTimersByTimeAsync(0);
});

afterEach(() => {
  vi.useRealTimers();
});

describe('keyboard shortcuts', () => {
  it('every one says it needs a key when none is set, with or without a last profile or script; a click opens the settings', async () => {
    await connection.setValue({ serviceUrl: 'http://127.0.0.1:8787', apiKey: null });
    const needsKey = ['#/settings', 'No API key is set. Open the options to enter one.'];
    for (const command of Object.values(COMMANDS)) expect(await press(command)).toEqual(needsKey);
    await lastProfile.setValue({ id: 'prf_1', name: 'Shop' });
    await lastRun.setValue({
      profile_id: 'prf_1',
      script: { steps: [{ action: 'goto', url: 'https://a.example' }] },
    });
    for (const command of Object.values(COMMANDS)) expect(await press(command)).toEqual(needsKey);
    expect(service.requests).toEqual([]);
  });

  it('start-last-profile starts the last used profile, or says there is none yet', async () => {
    expect(await press(COMMANDS.startLastProfile)).toEqual([
      '#/',
      'No profile has been used yet. Start a session from the popup first.',
    ]);
    await lastProfile.setValue({ id: 'prf_1', name: 'Shop' });
    expect(await press(COMMANDS.startLastProfile)).toEqual([
      '#/profiles/prf_1',
      'Started a session for Shop.',
    ]);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('1');
    expect(await press(COMMANDS.startLastProfile)).toEqual(['#/', SESSION_EXISTS_DETAIL]);
  });

  it('start-last-profile says the profile starts once a browser is free when none is now', async () => {
    await lastProfile.setValue({ id: 'prf_1', name: 'Shop' });
    service.noRoom = true;
    expect(await press(COMMANDS.startLastProfile)).toEqual([
      '#/profiles/prf_1',
      'No browser is free now: Shop starts once one is.',
    ]);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('');
  });

  it('stop-all-sessions asks first, stops them all on a second press and says how many, or that none was running', async () => {
    expect(await press(COMMANDS.stopAllSessions)).toEqual(['#/', 'No sessions are running.']);
    service.startSession('prf_1');
    service.startSession('prf_2');
    const asked = [
      '#/',
      'Stop all running sessions (2)? Press the shortcut again within 5 seconds to stop them.',
    ];
    expect(await press(COMMANDS.stopAllSessions)).toEqual(asked);
    expect(service.requests.filter(({ path }) => path.endsWith('/stop'))).toEqual([]);
    // Too late: the question is asked again, and nothing stopped.
    await vi.advanceTimersByTimeAsync(5000);
    expect(await press(COMMANDS.stopAllSessions)).toEqual(asked);
    expect(await press(COMMANDS.stopAllSessions)).toEqual(['#/', 'Sessions stopped: 2.']);
    expect(await fakeBrowser.action.getBadgeText({})).toBe('');
  });

  it('run-last-script runs the last script again and follows it, or says there is none yet', async () => {
    expect(await press(COMMANDS.runLastScript)).toEqual([
      '#/',
      'No script has been run yet. Run one from the popup first.',
    ]);
    const script = { steps: [{ action: 'goto' as const, url: 'https://a.example' }] };
    await lastRun.setValue({ profile_id: 'prf_1', script, name: 'Prices' });
    const [id, message] = (await press(COMMANDS.runLastScript)) ?? [];
    expect(message).toBe('Running Prices…');
    expect(id).toMatch(/^#\/runs\/run_\d+$/);
    expect((await watchedRuns.getValue())[0]?.phase).toBe('watching');
    expect(await fakeBrowser.action.getBadgeText({})).toBe('…');
  });

  it('says what went wrong when the service cannot be reached', async () => {
    await lastProfile.setValue({ id: 'prf_1', name: 'Shop' });
    service.outage = 0;
    await stubs.onCommand.trigger(COMMANDS.startLastProfile);
    // The client tries three times before giving up.
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await fakeBrowser.notifications.getAll())['#/']).toMatchObject({
      message: 'The service at http://127.0.0.1:8787 cannot be reached. Is it running?',
    });
  });

  it('ignores commands it does not know', async () => {
    expect(await press('something-else')).toBeUndefined();
  });
});
