/**
 * The popup as a person sees it in Firefox, through puppeteer: controls found by their label or accessible
 * name; and what the extension shows outside the page (badge, notifications, shortcuts), read with the
 * extension's own APIs from the popup page.
 */
import type { Locator, Page } from 'puppeteer-core';
import type { ShownNotification } from './worker';

/** The control a `<label>` with exactly this text names. */
export function byLabel(popup: Page, label: string): Locator<Element> {
  return popup.locator(`::-p-xpath(//*[@id=//label[normalize-space(.)=${JSON.stringify(label)}]/@for])`);
}

/** A button or link by its accessible name. */
export function control(popup: Page, role: 'button' | 'link' | 'checkbox', name: string): Locator<Element> {
  return popup.locator(`::-p-aria(${name}[role="${role}"])`);
}

/** Waits until `text` shows; fails at once with the popup's own sentence if an alert shows instead. */
export async function textUnlessRefused(popup: Page, text: string): Promise<void> {
  const shown = await popup.waitForFunction(
    (text) => {
      const alert = document.querySelector('[role="alert"]')?.textContent;
      if (alert) return { alert };
      return document.body.textContent?.includes(text) ? { alert: null } : false;
    },
    { timeout: 60_000 },
    text,
  );
  const { alert } = (await shown.jsonValue()) as { alert: string | null };
  if (alert) throw new Error(`the popup said instead: ${alert}`);
}

/** The extension APIs as a page of the extension sees them. */
type InPage = typeof globalThis & {
  browser: typeof import('wxt/browser').browser;
  shownNotifications?: ShownNotification[];
};

/** The toolbar badge's text and its tooltip. */
export function badge(popup: Page): Promise<{ text: string; title: string }> {
  return popup.evaluate(async () => {
    const { action } = (globalThis as InPage).browser;
    return { text: await action.getBadgeText({}), title: await action.getTitle({}) };
  });
}

/**
 * From now on keeps, in the background page (Firefox's is a page, which the popup may reach), a copy of every notification the extension shows: headless
 * Firefox closes a notification as soon as it is created, so none can be read back afterwards.
 */
export function recordNotifications(popup: Page): Promise<void> {
  return popup.evaluate(async () => {
    const background = (await (globalThis as InPage).browser.runtime.getBackgroundPage()) as InPage;
    if (background.shownNotifications) return;
    const shown: ShownNotification[] = [];
    background.shownNotifications = shown;
    const notifications = background.browser.notifications;
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
export function takeNotifications(popup: Page): Promise<ShownNotification[]> {
  return popup.evaluate(async () => {
    const background = (await (globalThis as InPage).browser.runtime.getBackgroundPage()) as InPage;
    return background.shownNotifications?.splice(0) ?? [];
  });
}

/** The manifest's commands as Firefox registered them, each as `name: shortcut`, and as the manifest suggests. */
export function shortcuts(popup: Page): Promise<{ registered: string[]; suggested: string[] }> {
  return popup.evaluate(async () => {
    const { commands, runtime } = (globalThis as InPage).browser;
    const registered = (await commands.getAll()).map(({ name, shortcut }) => `${name}: ${shortcut ?? ''}`);
    const suggested = Object.entries(runtime.getManifest().commands ?? {}).map(
      ([name, { suggested_key: key }]) => `${name}: ${typeof key === 'string' ? key : key?.default}`,
    );
    return { registered: registered.sort(), suggested: suggested.sort() };
  });
}
