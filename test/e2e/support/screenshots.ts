import path from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';

/** Chromium makes a popup as tall as its page, up to this. */
const POPUP_MAX_HEIGHT = 600;

/**
 * Saves the popup as Chromium would show it, as <name>.png in the run's screenshot folder (docs/screenshots for
 * the README under `npm run screenshots`): as tall as its page (up to the popup's limit, or `maxHeight` for a
 * page of a tab such as the options page), scrolled as it is now.
 */
export async function saveScreenshot(page: Page, name: string, maxHeight = POPUP_MAX_HEIGHT): Promise<void> {
  const size = page.viewportSize();
  if (!size) throw new Error('the popup page has no viewport size');
  const height = await page.evaluate(() => document.body.scrollHeight);
  await page.setViewportSize({ width: size.width, height: Math.min(height, maxHeight) });
  try {
    await page.screenshot({
      path: path.join(inject('screenshotsDir'), `${name}.png`),
      animations: 'disabled',
      caret: 'hide',
    });
  } finally {
    await page.setViewportSize(size);
  }
}
