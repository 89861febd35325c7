import type { Page } from 'playwright-core';

const WITHIN = { timeout: 10_000 } as const;

/**
 * Goes back or forward in the tab; false where there is no page to go to. It waits for the commit only: a page the
 * back-forward cache restores fires no load event. Such a page is then loaded again, because Playwright's refs do
 * not follow a restored document (the next snapshot's would not resolve).
 */
export async function goInHistory(page: Page, go: 'back' | 'forward'): Promise<boolean> {
  const before = page.url();
  const how = { waitUntil: 'commit', ...WITHIN } as const;
  const went = go === 'back' ? await page.goBack(how) : await page.goForward(how);
  if (went === null && page.url() === before) return false;
  if (went === null) await page.reload({ waitUntil: 'load', ...WITHIN });
  return true;
}
