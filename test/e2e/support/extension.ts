import path from 'node:path';
import type { BrowserContext, ConsoleMessage, Page, Worker } from 'playwright-core';
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

/** How many console lines of its pages and worker each open extension keeps, for a failure's report. */
const CONSOLE_KEPT = 30;
/** The open extensions' contexts, each with the last lines their pages and worker wrote to the console. */
const open = new Map<BrowserContext, string[]>();

/** What each open extension shows and said last: its pages' addresses and text, and its console's last lines. */
export async function extensionsNow(): Promise<string> {
  const reports = await Promise.all(
    [...open].map(async ([context, said]) => {
      const pages = await Promise.all(
        context.pages().map(async (page) => {
          const text = await page
            // biome-ignore lint/performance/useDomNodeTextContent: what the page shows, laid out, as a person saw it
            .evaluate(() => document.body?.innerText ?? '')
            .then((shown) => shown.replace(/\s+/g, ' ').slice(0, 600))
            .catch((error: unknown) => `(unreadable: ${error})`);
          return `  ${page.url()}: ${text}`;
        }),
      );
      const kept = await keptLists(context);
      return ['an extension’s pages:', ...pages, 'its console, last lines:', ...said, ...kept].join('\n');
    }),
  );
  return reports.join('\n');
}

/** The lists the worker keeps, each as what it was read for and how many entries it holds (never the key). */
async function keptLists(context: BrowserContext): Promise<string[]> {
  const worker = context.serviceWorkers().at(-1);
  if (!worker) return [];
  const lists = await worker
    .evaluate(async () => {
      const { storage } = (globalThis as unknown as { chrome: typeof import('wxt/browser').browser }).chrome;
      const kept = await storage.local.get(['cachedProfiles', 'cachedProxies', 'cachedSessions']);
      return Object.entries(kept).map(([name, value]) => {
        const list = value as { data?: unknown[]; filter?: unknown; savedAt?: number } | null;
        return `  ${name}: ${list?.data?.length ?? 0} entries, filter ${JSON.stringify(list?.filter ?? null)}, saved at ${list?.savedAt}`;
      });
    })
    .catch((error: unknown) => [`  (unreadable: ${error})`]);
  return ['its kept lists:', ...lists];
}

function keepConsole(context: BrowserContext): string[] {
  const said: string[] = [];
  const keep = (from: string) => (message: ConsoleMessage) => {
    said.push(`  ${from} ${message.type()}: ${message.text().slice(0, 500)}`);
    said.splice(0, said.length - CONSOLE_KEPT);
  };
  const follow = (worker: Worker) => worker.on('console', keep('worker'));
  context.serviceWorkers().forEach(follow);
  context.on('serviceworker', follow);
  context.on('page', (page) => page.on('console', keep('page')));
  return said;
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
  open.set(browser.context, keepConsole(browser.context));
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
      open.delete(browser.context);
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
