import type { Page } from 'playwright-core';
import { PageAddress } from '../../../lib/api/inputs/automation';
import { PageProblem } from '../../core/domain-errors';
import { openDialog } from '../page-dialogs';
import { goInHistory } from '../page-history';
import { cutUrl } from '../page-text';
import { where } from '../page-where';
import { runStep } from '../steps';
import { definePageTool, stepContext } from './page-tool';

/** How long opening the address again, where there was nothing to go back to, may take. */
const OPEN_AGAIN = { waitUntil: 'load', timeout: 10_000 } as const;

export const navigate = definePageTool({
  name: 'browser_navigate',
  title: 'Open an address',
  description: 'Opens url in your tab; waits for the load (30 s).',
  input: { url: PageAddress },
  async run(tab, { url }, context) {
    const page = tab.current;
    await navigateOrStay(page, () => runStep({ action: 'goto', url }, stepContext(tab, context)));
    return where(page, 'Navigated.');
  },
});

/**
 * A navigation that fails (refused by the network policy, unreachable, too slow) leaves the tab where it was: the
 * error page it committed is left by going back, and the answer says where the tab is.
 */
async function navigateOrStay(page: Page, go: () => Promise<unknown>): Promise<void> {
  const before = page.url();
  try {
    await go();
  } catch (error) {
    // A dialog the page raised while it loaded holds the load: the page stays, for the agent to answer it.
    if (openDialog(page)) throw error;
    // A network error's page may commit only after the navigation was reported failed.
    if (page.url() === before)
      await page
        .waitForEvent('framenavigated', { predicate: (frame) => frame === page.mainFrame(), timeout: 1_000 })
        .catch(() => null);
    // The page before comes back from the back-forward cache: waiting for its load event, which never fires,
    // cost every failed navigation 10 s.
    if (page.url() !== before) await goInHistory(page, 'back').catch(() => null);
    // An error page that took the place of the entry has nothing to go back to: open the address again.
    if (page.url() !== before && /^https?:/.test(before))
      await page.goto(before, OPEN_AGAIN).catch(() => null);
    const now = page.url();
    const stays = now === before ? `The tab stays at ${cutUrl(before)}.` : `The tab is at ${cutUrl(now)}.`;
    throw new PageProblem(`${error instanceof Error ? error.message : String(error)}. ${stays}`);
  }
}
