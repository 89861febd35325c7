import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { BADGE_COLORS, badgeFor, keepBadgeCurrent } from '../../../entrypoints/background/badge';
import type { AutomationRun, Session } from '../../../lib/api';
import { cachedSessions, type WatchedRun, watchedRuns } from '../../../lib/storage';
import { installBrowser } from './browser-stubs';

const hex = (color: string) => [1, 3, 5].map((i) => Number.parseInt(color.slice(i, i + 2), 16)).concat(255);

function watched(status: AutomationRun['status'], phase: WatchedRun['phase'], seen = false): WatchedRun {
  const run = { id: `run_${status}`, status } as AutomationRun;
  return { run, phase, since: 0, endedAt: null, notified: true, seen, message: null };
}

beforeEach(() => {
  installBrowser();
});

describe('badgeFor', () => {
  it('shows nothing when nothing runs', () => {
    expect(badgeFor({ requests: 0, sessions: 0, running: false, failed: false })).toEqual({
      text: '',
      color: BADGE_COLORS.idle,
      title: 'Profile Pilot',
    });
  });

  it('counts the running sessions', () => {
    expect(badgeFor({ requests: 0, sessions: 1, running: false, failed: false }).title).toBe(
      'Profile Pilot\n1 session running',
    );
    expect(badgeFor({ requests: 0, sessions: 3, running: false, failed: false })).toMatchObject({
      text: '3',
      title: 'Profile Pilot\n3 sessions running',
    });
  });

  it('marks a run in progress, and an unseen failure above all', () => {
    expect(badgeFor({ requests: 0, sessions: 2, running: true, failed: false })).toMatchObject({
      text: '2…',
      color: BADGE_COLORS.running,
    });
    expect(badgeFor({ requests: 0, sessions: 0, running: true, failed: true })).toEqual({
      text: '!',
      color: BADGE_COLORS.failed,
      title: 'Profile Pilot\nA run is in progress\nA run failed: open the popup to see it',
    });
  });

  it('counts the requests waiting for a person before anything else', () => {
    expect(badgeFor({ requests: 2, sessions: 3, running: true, failed: true })).toEqual({
      text: '2',
      color: BADGE_COLORS.requests,
      title:
        'Profile Pilot\n2 waiting for you\n3 sessions running\nA run is in progress\nA run failed: open the popup to see it',
    });
  });
});

describe('the badge follows storage', () => {
  /** Waits until the badge shows `text` (it is redrawn when storage reports the change). */
  const badgeShows = (text: string) =>
    vi.waitFor(async () => expect(await fakeBrowser.action.getBadgeText({})).toBe(text));

  it('redraws when the sessions or the runs change, and clears the failure mark once seen', async () => {
    keepBadgeCurrent();
    await cachedSessions.setValue({
      data: [{ id: 'ses_1' } as Session, { id: 'ses_2' } as Session],
      savedAt: 0,
    });
    await badgeShows('2');

    await watchedRuns.setValue([watched('running', 'watching')]);
    await badgeShows('2…');
    expect(await fakeBrowser.action.getBadgeBackgroundColor({})).toEqual(hex(BADGE_COLORS.running));

    await watchedRuns.setValue([watched('failed', 'ended')]);
    await badgeShows('2!');
    expect(await fakeBrowser.action.getBadgeBackgroundColor({})).toEqual(hex(BADGE_COLORS.failed));
    expect(await fakeBrowser.action.getTitle({})).toContain('A run failed');

    await watchedRuns.setValue([watched('failed', 'ended', true), watched('succeeded', 'ended')]);
    await badgeShows('2');
  });

  it('counts a dropped run as a failure to look at', async () => {
    await watchedRuns.setValue([watched('running', 'dropped')]);
    keepBadgeCurrent();
    await badgeShows('!');
  });
});
