import type { Page } from 'playwright-core';
import type { AgentDownloads } from './page-downloads';
import type { AgentTabs } from './tools/page-tool';
import { watchTab } from './watch-tab';

/**
 * One agent's tabs in a session's browser: the tab it was given, the ones it opens, and the ones their pages open
 * (a link to a new tab, `window.open`, a form's target), in the order they opened. A person's tabs, and another
 * agent's, are never among them.
 */
export function agentTabs(first: Page, downloads: AgentDownloads): AgentTabs {
  const own = new Set<Page>();
  const adopt = (page: Page) => {
    if (own.has(page)) return;
    own.add(page);
    watchTab(page);
    page.on('popup', adopt);
    page.once('close', () => own.delete(page));
  };
  adopt(first);
  return {
    current: first,
    list: () => [...own].filter((page) => !page.isClosed()),
    async newTab() {
      const page = await first.context().newPage();
      adopt(page);
      return page;
    },
    downloads,
  };
}
