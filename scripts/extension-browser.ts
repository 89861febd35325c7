import path from 'node:path';
import { type BrowserContext, chromium, type Worker } from 'playwright-core';
import { CHROME_INSTALL_HINT, findChrome } from '../server/browser/find-chrome';

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  /** The extension's background service worker. */
  worker: Worker;
  /** chrome-extension://<id>/popup.html */
  popupUrl: string;
  close(): Promise<void>;
}

/**
 * Chromium with the built extension loaded, on a profile folder of its own. Debian's Chromium honours
 * --load-extension (branded Chrome ignores it), headless too.
 */
export async function launchWithExtension(options: {
  extensionDir: string;
  userDataDir: string;
  headless: boolean;
}): Promise<ExtensionBrowser> {
  const executablePath = findChrome();
  if (!executablePath) throw new Error(`No Chromium found. ${CHROME_INSTALL_HINT}`);
  const extensionDir = path.resolve(options.extensionDir);
  const context = await chromium.launchPersistentContext(options.userDataDir, {
    executablePath,
    // Playwright's 'chromium' channel keeps extensions enabled and runs the new headless mode, which loads them.
    channel: 'chromium',
    // Whoever launches it decides what Ctrl+C stops, and in which order.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    headless: options.headless,
    viewport: null,
    args: [
      `--disable-extensions-except=${extensionDir}`,
      `--load-extension=${extensionDir}`,
      '--no-first-run',
      '--no-default-browser-check',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    extensionId,
    worker,
    popupUrl: `chrome-extension://${extensionId}/popup.html`,
    close: () => context.close(),
  };
}

/** The one extension API used inside the worker from here (evaluated there, so not typed by this file's imports). */
interface ChromeGlobal {
  chrome: { storage: { local: { set(items: Record<string, unknown>): Promise<void> } } };
}

/** Stores the service address and key where the extension keeps them, as the set-up screen would. */
export async function connectExtension(worker: Worker, serviceUrl: string, apiKey: string): Promise<void> {
  await worker.evaluate(
    (connection) => (globalThis as unknown as ChromeGlobal).chrome.storage.local.set({ connection }),
    { serviceUrl, apiKey },
  );
}
