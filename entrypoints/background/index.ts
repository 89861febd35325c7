import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { storage } from 'wxt/utils/storage';
import type { RunCreate } from '../../lib/api/inputs/automation';
import type { ServiceCall } from '../../lib/messaging/protocol';
import { createReceiver, type Handlers } from '../../lib/messaging/receive';
import { EMPTY_HISTORY, type PollHistory } from '../../lib/scheduling/watch-plan';
import { cachedSessions, watchedRuns } from '../../lib/storage';
import { keepBadgeCurrent } from './badge';
import { createCommandHandler } from './commands';
import { announceRun, announceSessionExit, openFromNotification, showFeedback } from './notifications';
import { createRuns } from './runs';
import { checkService, connect, latestQuota, requireApi, sentenceOf } from './service';
import { createSessions } from './sessions';
import { createWatcher, WATCH_ALARM } from './watcher';

/** How old the cached sessions may be when the worker starts, and when the popup opens. */
const STALE_ON_START_MS = 15 * 60_000;
const STALE_ON_POPUP_MS = 10_000;

/** The watcher's own bookkeeping; only the worker reads it. */
const watchHistory = storage.defineItem<PollHistory>('local:watchHistory', {
  fallback: EMPTY_HISTORY,
  version: 1,
});

function quietly(task: Promise<unknown>): void {
  task.catch((error) =>
    console.warn('Profile Pilot worker:', error instanceof Error ? error.message : error),
  );
}

export default defineBackground(() => {
  const watcher = createWatcher({
    api: connect,
    runs: watchedRuns,
    history: watchHistory,
    quota: { getValue: latestQuota },
    now: Date.now,
    setTimer(callback, ms) {
      const timer = setTimeout(callback, ms);
      return () => clearTimeout(timer);
    },
    alarm: {
      set: (when) => browser.alarms.create(WATCH_ALARM, { when }),
      clear: async () => {
        await browser.alarms.clear(WATCH_ALARM);
      },
    },
    announce: announceRun,
  });
  const sessions = createSessions({ api: requireApi, now: Date.now, onExited: announceSessionExit });
  const runs = createRuns({ api: requireApi, watcher });

  const handlers: Handlers = {
    'session.start': ({ profileId, headless }) => sessions.start(profileId, headless),
    'session.stop': ({ profileId }) => sessions.stop(profileId),
    'session.stopAll': () => sessions.stopAll(),
    // The envelope was checked; the service checks the script and answers 422 at the step at fault.
    'run.start': ({ run }) => runs.start(run as RunCreate),
    'watch.cancel': ({ runId }) => watcher.cancel(runId),
    async 'state.read'({ seen }) {
      if (seen) await watcher.markSeen();
      const error = await sessions.reconcile(STALE_ON_POPUP_MS).then(() => null, sentenceOf);
      const [live, followed, quota] = await Promise.all([
        cachedSessions.getValue(),
        watchedRuns.getValue(),
        latestQuota(),
      ]);
      return { sessions: live?.data ?? [], runs: followed, quota, error };
    },
    async 'service.call'({ call, args }) {
      const api = (await requireApi()) as unknown as Record<
        ServiceCall,
        (...args: unknown[]) => Promise<unknown>
      >;
      return api[call](...args);
    },
    'service.check': ({ serviceUrl, apiKey }) => checkService(serviceUrl, apiKey),
  };

  // Listeners first and synchronously: the event that woke the worker is delivered right after this runs.
  browser.runtime.onMessage.addListener(createReceiver(handlers));
  browser.alarms.onAlarm.addListener(({ name }) => {
    if (name === WATCH_ALARM) quietly(watcher.wake());
  });
  const onCommand = createCommandHandler({ sessions, runs, feedback: showFeedback });
  browser.commands.onCommand.addListener((command) => quietly(onCommand(command)));
  browser.notifications.onClicked.addListener((id) => quietly(openFromNotification(id, watcher.markSeen)));
  browser.runtime.onStartup.addListener(() => quietly(sessions.reconcile()));

  keepBadgeCurrent();
  quietly(watcher.wake());
  quietly(sessions.reconcile(STALE_ON_START_MS));
});
