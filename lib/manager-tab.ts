import { browser } from 'wxt/browser';

/** The id of the toolbar button's menu item that opens the manager. */
export const MANAGER_MENU_ITEM = 'open-manager';

/** Opens the manager, the table of every profile, in a new tab. */
export async function openManager(): Promise<void> {
  await browser.tabs.create({ url: browser.runtime.getURL('/manager.html') });
}

/** Puts "Open in a tab" in the toolbar button's menu (once, as the extension is installed or updated). */
export function addManagerMenuItem(): void {
  browser.contextMenus.create({
    id: MANAGER_MENU_ITEM,
    title: browser.i18n.getMessage('openManager'),
    contexts: ['action'],
  });
}
