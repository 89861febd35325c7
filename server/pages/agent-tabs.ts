import type { BrowserContext, Page } from 'playwright-core';
import type { AgentDownloads } from './page-downloads';
import type { AgentTabs } from './tools/page-tool';
import { watchTab } from './watch-tab';

/** How long after an action a tab with no opener (a middle click's) is still taken as the action's. */
const CLAIM_AFTER_MS = 2_000;

/** The agent that acts in each browser now, or acted last (until when it may still claim a tab with no opener). */
const lastActor = new WeakMap<BrowserContext, { agent: Set<Page>; until: number }>();

/**
 * One agent's tabs in a session's browser: the tab it was given, the ones it opens, and the ones their pages open
 * (a link to a new tab, `window.open`, a form's target, a middle click), in the order they opened. A person's
 * tabs, and another agent's, are never among them.
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

  // A middle click opens a background tab that names no opener: it is the agent's that acts in the browser, or
  // acted last within CLAIM_AFTER_MS, and no other's. The tabs the service opens for agents start blank, which a
  // clicked link's never is.
  const context = first.context();
  let acting = 0;
  context.on('page', (page) => {
    const last = lastActor.get(context);
    if (last?.agent === own && Date.now() < last.until && page.url() !== 'about:blank') adopt(page);
  });

  return {
    current: first,
    list: () => [...own].filter((page) => !page.isClosed()),
    async newTab() {
      const page = await first.context().newPage();
      adopt(page);
      return page;
    },
    async acting<T>(action: Promise<T>): Promise<T> {
      acting += 1;
      lastActor.set(context, { agent: own, until: Number.POSITIVE_INFINITY });
      try {
        return await action;
      } finally {
        acting -= 1;
        const last = lastActor.get(context);
        if (acting === 0 && last?.agent === own) last.until = Date.now() + CLAIM_AFTER_MS;
      }
    },
    downloads,
  };
}
