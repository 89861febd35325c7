import path from 'node:path';
import type { Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../../server/config';

const FOLDER = path.join(PROJECT_ROOT, 'docs/screenshots');
/** Chromium makes a popup as tall as its page, up to this. */
const POPUP_MAX_HEIGHT = 600;

/**
 * Saves the popup as Chromium would show it, as docs/screenshots/<name>.png for the README: as tall as its
 * page (up to the popup's limit), scrolled as it is now.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const size = page.viewportSize();
  if (!size) throw new Error('the popup page has no viewport size');
  const height = await page.evaluate(() => document.body.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.min(height, POPUP_MAX_HEIGHT) });
  try {
    await page.screenshot({ path: path.join(FOLDER, `${name}.png`), animations: 'disabled', caret: 'hide' });
  } finally {
    await page.setViewportSize(size);
  }
}
