/**
 * Firefox (Debian's `firefox-esr`) with the built extension, driven over WebDriver BiDi by puppeteer-core.
 *
 * BiDi refuses to navigate a tab to `moz-extension://`. Launched with `--remote-allow-system-access`, BiDi may
 * also run script in the browser's own window (its `chrome` scope), which opens the popup page in a new tab
 * as Firefox opens an extension's page itself; BiDi then drives that tab like any other. The extension is the
 * same build as the one shipped: nothing in it is opened up for the test.
 */
import { randomUUID } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { PROJECT_ROOT } from '../../../server/core/config';
import { eventually } from './wait';

/** Where the global set-up builds the Firefox extension (`wxt zip -b firefox --mv3`), as it ships. */
export const FIREFOX_EXTENSION_DIR = path.join(PROJECT_ROOT, '.output/firefox-mv3');
const ADDON_ID = 'profile-pilot@profile-pilot.dev';
const CANDIDATES = ['/usr/bin/firefox-esr', '/usr/bin/firefox'];
/** About the size Firefox gives an extension's popup. */
const POPUP_SIZE = { width: 380, height: 600 };

/** The BiDi connection puppeteer holds (not in its public types): the one way to reach the `chrome` scope. */
interface BidiConnection {
  send(method: string, params: object): Promise<{ result: unknown }>;
}

export interface FirefoxExtension {
  browser: Browser;
  /** The popup page in a tab of its own, at a popup's size. */
  openPopup(): Promise<Page>;
  close(): Promise<void>;
}

/** FIREFOX_PATH, else Debian's firefox-esr, else firefox. */
export function findFirefox(env: NodeJS.ProcessEnv = process.env): string {
  const found = [env.FIREFOX_PATH, ...CANDIDATES].find((candidate) => candidate && isExecutable(candidate));
  if (!found)
    throw new Error('No Firefox found. Install it (apt-get install firefox-esr) or set FIREFOX_PATH.');
  return found;
}

/** Headless Firefox with the built extension installed, its internal UUID fixed so the popup's address is known. */
export async function openFirefoxExtension(extensionDir = FIREFOX_EXTENSION_DIR): Promise<FirefoxExtension> {
  const uuid = randomUUID();
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: findFirefox(),
    headless: true,
    args: ['--remote-allow-system-access'],
    extraPrefsFirefox: { 'extensions.webextensions.uuids': JSON.stringify({ [ADDON_ID]: uuid }) },
  });
  try {
    const installed = await browser.installExtension(extensionDir);
    if (installed !== ADDON_ID) throw new Error(`installed ${installed}, expected ${ADDON_ID}`);
  } catch (error) {
    await browser.close();
    throw error;
  }
  const popupUrl = `moz-extension://${uuid}/popup.html`;
  return {
    browser,
    async openPopup() {
      await openTabFromBrowserWindow(browser, popupUrl);
      // Puppeteer is not told of the new tab's address (BiDi hides extension navigations): ask each tab.
      const page = await eventually('the popup tab', async () => {
        for (const page of await browser.pages())
          if ((await page.evaluate(() => document.URL)) === popupUrl) return page;
        return undefined;
      });
      await page.setViewport(POPUP_SIZE);
      return page;
    },
    close: () => browser.close(),
  };
}

/** Runs in Firefox's own window, with its privileges: opens `url` in a new, selected tab. */
async function openTabFromBrowserWindow(browser: Browser, url: string): Promise<void> {
  const connection = (browser as unknown as { connection?: BidiConnection }).connection;
  if (!connection) throw new Error('puppeteer no longer exposes its BiDi connection');
  const { result } = await connection.send('browsingContext.getTree', { 'moz:scope': 'chrome' });
  const window = (result as { contexts: { context: string; url: string }[] }).contexts.find(
    (context) => context.url === 'chrome://browser/content/browser.xhtml',
  );
  if (!window) throw new Error('Firefox has no browser window to open the popup from');
  await connection.send('script.evaluate', {
    expression: `gBrowser.selectedTab = gBrowser.addTab(${JSON.stringify(url)}, {
      triggeringPrincipal: Services.scriptSecurityManager.getSystemPrincipal(),
    }); undefined`,
    target: { context: window.context },
    awaitPromise: false,
  });
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
