import type { BrowserContext, Page } from 'playwright-core';
import { targetIdOf } from './tab-target';

/**
 * A tab in a window of its own: the visible tab of its window, so that its page keeps running its animation frames
 * and timers (which clicks wait for) whatever another agent's tabs, or the person's, do in theirs.
 */
export async function tabInNewWindow(context: BrowserContext): Promise<Page> {
  const browser = context.browser();
  if (!browser) return context.newPage();
  const cdp = await browser.newBrowserCDPSession();
  try {
    const created = cdp.send('Target.createTarget', { url: 'about:blank', newWindow: true });
    const [page] = await Promise.all([
      context.waitForEvent('page', {
        predicate: async (page) => (await targetIdOf(page)) === (await created).targetId,
        timeout: 10_000,
      }),
      created,
    ]);
    return page;
  } finally {
    await cdp.detach().catch(() => {});
  }
}
