import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { addManagerMenuItem, MANAGER_MENU_ITEM, openManager } from '../../lib/manager-tab';
import { createReceiver } from '../../lib/messaging/receive';
import { connection } from '../../lib/storage';
import { keepBadgeCurrent } from './badge';
import { createCommandHandler } from './commands';
import { requireApi } from './connection';
import { createInbox } from './inbox';
import { createIntentHandlers } from './intents';
import { applyEvent, holdStreamWhileNeeded } from './live';
import {
  announceRequest,
  announceRun,
  announceSessionExit,
  openFromNotification,
  showFeedback,
  withdrawRequest,
} from './notifications';
import { createRuns } from './runs';
import { createSessions } from './sessions';
import { createEventStream } from './stream';
import { watchStore } from './watch-store';
import { createWatcher, WATCH_ALARM } from './watcher';

/** How old the cached sessions may be when the worker starts. */
const STALE_ON_START_MS = 15 * 60_000;

/** The watcher's own bookkeeping; only the worker reads it. */

function quietly(task: Promise<unknown>): void {
  task.catch((error) =>
    console.warn('Profile Pilot worker:', error instanceof Error ? error.message : error),
  );
}

function setTimer(callback: () => void, ms: number): () => void {
  const timer = setTimeout(callback, ms);
  return () => clearTimeout(timer);
}

export default defineBackground(() => {
  const stream = createEventStream({
    connection: () => connection.getValue(),
    onEvent: (event) => applyEvent(event, { sessions, watcher, inbox }),
    onCatchUp: async () => {
      await Promise.all([sessions.reconcile(), watcher.catchUp(), inbox.refresh()]);
    },
    // Live, the watcher stops polling; dropped, it plans its polls again.
    onLiveChange: () => watcher.streamChanged(),
    setTimer,
    open: (url) => new WebSocket(url),
  });
  const watcher = createWatcher({
    ...watchStore,
    now: Date.now,
    setTimer,
    alarm: {
      set: (when) => browser.alarms.create(WATCH_ALARM, { when }),
      clear: async () => {
        await browser.alarms.clear(WATCH_ALARM);
      },
    },
    announce: announceRun,
    streaming: stream.isLive,
  });
  const sessions = createSessions({ api: requireApi, now: Date.now, onExited: announceSessionExit });
  const runs = createRuns({ api: requireApi, watcher });
  const inbox = createInbox({
    api: requireApi,
    announce: announceRequest,
    withdraw: withdrawRequest,
    openTab: async (url) => {
      await browser.tabs.create({ url });
    },
  });

  // Listeners first and synchronously: the event that woke the worker is delivered right after this runs.
  browser.runtime.onMessage.addListener(
    createReceiver(createIntentHandlers({ sessions, runs, watcher, inbox })),
  );
  browser.alarms.onAlarm.addListener(({ name }) => {
    if (name === WATCH_ALARM) quietly(watcher.wake());
  });
  const onCommand = createCommandHandler({ sessions, runs, feedback: showFeedback });
  browser.commands.onCommand.addListener((command) => quietly(onCommand(command)));
  browser.notifications.onClicked.addListener((id) =>
    quietly(openFromNotification(id, watcher.markSeen, inbox.takeOver)),
  );
  browser.runtime.onStartup.addListener(() => quietly(sessions.reconcile()));
  browser.runtime.onInstalled.addListener(addManagerMenuItem);
  browser.contextMenus.onClicked.addListener(
    ({ menuItemId }) => menuItemId === MANAGER_MENU_ITEM && quietly(openManager()),
  );

  holdStreamWhileNeeded(stream);
  keepBadgeCurrent();
  quietly(watcher.wake());
  quietly(sessions.reconcile(STALE_ON_START_MS));
});
