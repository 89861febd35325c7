/**
 * What the tests ask of the extension's service worker, evaluated inside it: its notifications, its badge,
 * its keyboard commands; and ending it through the DevTools protocol, as Chrome ends an idle worker.
 */
import type { BrowserContext, Worker } from 'playwright-core';
import type { browser } from 'wxt/browser';

/** The extension APIs as the worker sees them (`chrome` is `browser` in Chromium). */
type InWorker = typeof globalThis & {
  chrome: typeof browser & {
    commands: { onCommand: { dispatch(command: string): void } };
  };
  shownNotifications?: ShownNotification[];
};

export interface ShownNotification {
  /** The popup route it opens, e.g. `#/runs/run_…`. */
  id: string;
  title: string;
  message: string;
}

/** Ids of the notifications on screen (Chrome tells only their ids). */
export function notificationIds(worker: Worker): Promise<string[]> {
  return worker.evaluate(async () =>
    Object.keys(await (globalThis as InWorker).chrome.notifications.getAll()),
  );
}

export function clearNotification(worker: Worker, id: string): Promise<void> {
  return worker.evaluate(async (id) => {
    await (globalThis as InWorker).chrome.notifications.clear(id);
  }, id);
}

/**
 * From now on (until the worker ends) keeps a copy of every notification the worker shows, which Chrome does
 * not let anyone read back; the notifications themselves are still shown.
 */
export function recordNotifications(worker: Worker): Promise<void> {
  return worker.evaluate(() => {
    const scope = globalThis as InWorker;
    const notifications = scope.chrome.notifications;
    if (scope.shownNotifications) return;
    const shown: ShownNotification[] = [];
    scope.shownNotifications = shown;
    const create = notifications.create.bind(notifications) as (...args: unknown[]) => Promise<string>;
    Object.assign(notifications, {
      create(id: string, options: { title: string; message: string }) {
        shown.push({ id, title: options.title, message: options.message });
        return create(id, options);
      },
    });
  });
}

/** The notifications recorded since the last call, which forgets them. */
export function takeNotifications(worker: Worker): Promise<ShownNotification[]> {
  return worker.evaluate(() => (globalThis as InWorker).shownNotifications?.splice(0) ?? []);
}

/** The toolbar badge's text and its tooltip. */
export function badge(worker: Worker): Promise<{ text: string; title: string }> {
  return worker.evaluate(async () => {
    const { action } = (globalThis as InWorker).chrome;
    return { text: await action.getBadgeText({}), title: await action.getTitle({}) };
  });
}

/**
 * Delivers a keyboard command to the worker's `commands.onCommand` listeners, as the browser does on the key
 * press (key presses sent over the DevTools protocol never reach extension commands).
 */
export function dispatchCommand(worker: Worker, command: string): Promise<void> {
  return worker.evaluate((command) => {
    (globalThis as InWorker).chrome.commands.onCommand.dispatch(command);
  }, command);
}

/** The manifest's commands as Chromium registered them, with the shortcut it assigned ('' for none). */
export function registeredCommands(
  worker: Worker,
): Promise<{ name: string; description: string; shortcut: string }[]> {
  return worker.evaluate(async () =>
    (await (globalThis as InWorker).chrome.commands.getAll()).map(({ name, description, shortcut }) => ({
      name: name ?? '',
      description: description ?? '',
      shortcut: shortcut ?? '',
    })),
  );
}

/** The manifest's commands with the key each suggests, as `name: key`. */
export function suggestedKeys(worker: Worker): Promise<string[]> {
  return worker.evaluate(() => {
    const { commands = {} } = (globalThis as InWorker).chrome.runtime.getManifest();
    return Object.entries(commands).map(
      ([name, { suggested_key: key }]) => `${name}: ${typeof key === 'string' ? key : key?.default}`,
    );
  });
}

/** Whether the extension's service worker runs now, as the browser's DevTools targets say. */
export async function workerIsRunning(context: BrowserContext): Promise<boolean> {
  return (await workerTargetIds(context)).length > 0;
}

/**
 * Ends the extension's service worker, as Chrome does with an idle one, and resolves once it is gone. An event
 * that comes as it ends (an alarm, a closing popup's port) can start it again at once, under the same DevTools
 * target: it is then ended again, as Chrome would end it once idle.
 */
export async function endWorker(context: BrowserContext): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    await closeWorkerTargets(context);
    const settled = Date.now() + 1_000;
    while ((await workerIsRunning(context)) && Date.now() < settled) await sleep(100);
    if (!(await workerIsRunning(context))) return;
    if (Date.now() > deadline) throw new Error('the worker did not end');
  }
}

async function closeWorkerTargets(context: BrowserContext): Promise<void> {
  const devtools = await browserSession(context);
  try {
    // A worker that ended since it was listed has no target left to close.
    for (const targetId of await workerTargetIds(context))
      await devtools.send('Target.closeTarget', { targetId }).catch(() => undefined);
  } finally {
    await devtools.detach();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function workerTargetIds(context: BrowserContext): Promise<string[]> {
  const devtools = await browserSession(context);
  try {
    const { targetInfos } = await devtools.send('Target.getTargets');
    return targetInfos
      .filter(({ type, url }) => type === 'service_worker' && url.startsWith('chrome-extension://'))
      .map(({ targetId }) => targetId);
  } finally {
    await devtools.detach();
  }
}

function browserSession(context: BrowserContext) {
  const browser = context.browser();
  if (!browser) throw new Error('no browser behind this context');
  return browser.newBrowserCDPSession();
}
