import { browser } from 'wxt/browser';
import { t } from '../../lib/i18n';
import { cachedSessions, openRequests, type WatchedRun, watchedRuns } from '../../lib/storage';

export interface BadgeState {
  sessions: number;
  /** Requests for a person waiting for an answer: they come before anything else. */
  requests: number;
  /** A followed run has not ended yet. */
  running: boolean;
  /** A run failed (or was dropped) and the person has not looked at it yet. */
  failed: boolean;
}

export const BADGE_COLORS = { requests: '#B06000', failed: '#B3261E', running: '#1A73E8', idle: '#188038' };

/**
 * The number of open requests for a person while there are any; else the number of running sessions, then `!`
 * after an unseen failure or `…` while a run is in progress.
 */
export function badgeFor({ sessions, requests, running, failed }: BadgeState) {
  const mark = failed ? '!' : running ? '…' : '';
  const lines = [t('extName')];
  if (requests > 0) lines.push(t('badgeRequests', requests));
  if (sessions > 0) lines.push(sessions === 1 ? t('badgeOneSession') : t('badgeSessions', sessions));
  if (running) lines.push(t('badgeRunInProgress'));
  if (failed) lines.push(t('badgeRunFailed'));
  if (requests > 0) return { text: String(requests), color: BADGE_COLORS.requests, title: lines.join('\n') };
  return {
    text: `${sessions || ''}${mark}`,
    color: failed ? BADGE_COLORS.failed : running ? BADGE_COLORS.running : BADGE_COLORS.idle,
    title: lines.join('\n'),
  };
}

function isUnseenFailure(entry: WatchedRun): boolean {
  return (
    !entry.seen && (entry.phase === 'dropped' || (entry.phase === 'ended' && entry.run.status === 'failed'))
  );
}

export async function renderBadge(): Promise<void> {
  const [sessions, runs, requests] = await Promise.all([
    cachedSessions.getValue(),
    watchedRuns.getValue(),
    openRequests.getValue(),
  ]);
  const { text, color, title } = badgeFor({
    sessions: sessions?.data.length ?? 0,
    requests: requests.length,
    running: runs.some((entry) => entry.phase === 'watching'),
    failed: runs.some(isUnseenFailure),
  });
  await Promise.all([
    browser.action.setBadgeText({ text }),
    browser.action.setBadgeBackgroundColor({ color }),
    browser.action.setTitle({ title }),
  ]);
}

/** Draws the badge now and again whenever the sessions, the followed runs or the open requests change. */
export function keepBadgeCurrent(): void {
  const render = () => {
    renderBadge().catch((error) => console.warn('Profile Pilot worker: could not draw the badge', error));
  };
  cachedSessions.watch(render);
  watchedRuns.watch(render);
  openRequests.watch(render);
  render();
}
