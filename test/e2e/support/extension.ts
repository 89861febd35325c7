import path from 'node:path';
import type { BrowserContext, Page, Worker } from 'playwright-core';
import { type ExtensionBrowser, launchWithExtension } from '../../../scripts/extension-browser';
import { PROJECT_ROOT } from '../../../server/core/config';
import { makeTempDir } from '../../support/browser-fixtures';

/** Where the global set-up builds the extension (`wxt zip`), as it ships. */
export const EXTENSION_DIR = path.join(PROJECT_ROOT, '.output/chrome-mv3');
/** About the size Chromium gives an extension's popup. */
const POPUP_SIZE = { width: 380, height: 600 };

export interface Extension extends ExtensionBrowser {
  /** The popup page in a tab of its own, at a popup's size; `route` is a hash such as `#/automation`. */
  openPopup(route?: string): Promise<Page>;
  /** The extension's worker as it runs now (Chrome may have ended and restarted it since the launch). */
  currentWorker(): Worker;
}

/** Headless Chromium with the built extension, on a profile folder that `close()` removes. */
export async function openExtension(): Promise<Extension> {
  const profile = makeTempDir('pp-e2e-browser');
  const browser = await launchWithExtension({
    extensionDir: EXTENSION_DIR,
    userDataDir: profile.path,
    headless: true,
  }).catch((error: unknown) => {
    profile.remove();
    throw error;
  });
  return {
    ...browser,
    async openPopup(route = '') {
      const page = await browser.context.newPage();
      await page.setViewportSize(POPUP_SIZE);
      await page.goto(`${browser.popupUrl}${route}`);
      return page;
    },
    currentWorker: () => currentWorker(browser.context),
    async close() {
      await browser.close().catch(() => undefined);
      profile.remove();
    },
  };
}

function currentWorker(context: BrowserContext): Worker {
  const worker = context.serviceWorkers().at(-1);
  if (!worker) throw new Error('the extension has no service worker');
  return worker;
}
