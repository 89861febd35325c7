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

/** A tab's address and title, each said once: `http://shop.test/cart (Your basket)`. */
export function placeOf({ url, title }: { url: string; title: string }): string {
  return title ? `${url} (${title})` : url;
}

/** What was done and where the tab is now, and the dialog that holds it if one does. */
export async function where(page: Page, done: string): Promise<PageAnswer> {
  const place = placeOf(await addressOf(page));
  const dialog = openDialog(page);
  return { text: `${done} Now at ${place}.${dialog ? ` ${dialogLine(dialog)}` : ''}` };
}
