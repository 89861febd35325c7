import type { Page } from 'playwright-core';

const targetIds = new WeakMap<Page, Promise<string | null>>();

/** The DevTools target id of a Playwright tab (what the live view knows tabs by); null if it cannot be read. */
export function targetIdOf(page: Page): Promise<string | null> {
  let known = targetIds.get(page);
  if (!known) {
    known = readTargetId(page);
    targetIds.set(page, known);
  }
  return known;
}

async function readTargetId(page: Page): Promise<string | null> {
  try {
    const cdp = await page.context().newCDPSession(page);
    const { targetInfo } = await cdp.send('Target.getTargetInfo');
    // Detaching waits for the tab to run again: under a dialog (an alert raised while it loads) that is when the
    // dialog is answered, which must not wait for this.
    void cdp.detach().catch(() => {});
    return targetInfo.targetId;
  } catch {
    return null;
  }
}
