import type { Page } from 'playwright-core';
import type { PageAnswer } from '../../lib/api/inputs/page-tools';
import { dialogLine, openDialog } from './page-dialogs';
import { cutTitle, cutUrl } from './page-text';

/** A tab's address and title as an answer carries them: cut, since the page writes both. */
export async function addressOf(page: Page): Promise<{ url: string; title: string }> {
  // A page under a dialog answers nothing, its title neither.
  const title = openDialog(page) ? '' : await page.title().catch(() => '');
  return { url: cutUrl(page.url()), title: cutTitle(title) };
}

/** What was done and where the tab is now, or the dialog that holds it. */
export async function where(page: Page, done: string): Promise<PageAnswer> {
  const { url, title } = await addressOf(page);
  const dialog = openDialog(page);
  const next = dialog ? dialogLine(dialog) : 'Take a snapshot to see the page as it is now.';
  return {
    text: `${done} Page URL: ${url}. ${next}`,
    structured: { url, title, ...(dialog ? { dialog: dialogLine(dialog) } : {}) },
  };
}
