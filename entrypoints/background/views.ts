import { browser } from 'wxt/browser';
import { pendingView } from '../../lib/storage';

/**
 * Shows a view of the popup (`#/runs/<id>`): in the popup itself where the browser lets the worker open it,
 * else in a tab of popup.html.
 */
export async function openView(route: string): Promise<void> {
  await pendingView.setValue(route);
  try {
    await browser.action.openPopup();
    return;
  } catch {
    // Not available here (older browsers, no focused window): a tab shows the same view.
  }
  await pendingView.setValue(null);
  await browser.tabs.create({ url: browser.runtime.getURL(`/popup.html${route}`) });
}

/** The options page, in a tab of its own where the browser will not open it as the options. */
export async function openSettings(): Promise<void> {
  try {
    await browser.runtime.openOptionsPage();
  } catch {
    await browser.tabs.create({ url: browser.runtime.getURL('/options.html') });
  }
}
