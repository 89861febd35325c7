import type { Page } from 'playwright-core';
import { watchDialogs } from './page-dialogs';
import { watchConsole, watchNetwork } from './page-logs';
import { refsOf } from './page-refs';

const watched = new WeakSet<Page>();

/** Starts watching a tab's navigations, dialogs and requests before the agent acts on it. */
export function watchTab(page: Page): void {
  if (watched.has(page)) return;
  watched.add(page);
  refsOf(page);
  watchDialogs(page);
  watchNetwork(page);
  watchConsole(page);
}
