import { setTimeout as delay } from 'node:timers/promises';
import { type Browser, chromium, errors, type Page } from 'playwright-core';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import { devtoolsTransport } from './devtools-transport';
import { seconds } from './sentences';

/** A connect takes 20–200 ms here; the first try is cut short because of the hang described at connect(). */
const CONNECT_ATTEMPT_TIMEOUTS_MS = [2_000, 8_000];
const LEAVE_PAGE_TIMEOUT_MS = 5_000;

/**
 * Where a browser's DevTools are: the multiplexer of a browser this process runs, reached without leaving the
 * process, or a DevTools WebSocket address (a session another node runs, through this node's relay).
 */
export type DevtoolsEndpoint = CdpMultiplexer | string;

/** The tab a run or an agent works in, and how to give the browser back. */
export interface OpenTab {
  page: Page;
  /** Aborts when the tab closes or crashes, or its browser goes away. */
  gone: AbortSignal;
  /** Closes the tab and disconnects, leaving the browser running; never throws. */
  release(): Promise<void>;
}

/**
 * Playwright 1.65 waits for every open tab's first navigation to commit before connectOverCDP resolves, and
 * misses a commit that lands while it attaches: connecting just after the browser started (its first tab still
 * opening) hung often here (1 try in 3 from a script, nearly every first try in the tests), and the next try
 * succeeds. A tab whose first page never loads (a hung server or proxy) blocks every try
 * (microsoft/playwright#41093).
 */
async function connect(devtools: DevtoolsEndpoint): Promise<Browser> {
  for (const timeout of CONNECT_ATTEMPT_TIMEOUTS_MS) {
    // noDefaults: Playwright would otherwise redirect the default context's downloads into a temporary
    // folder and emulate focus and media there, i.e. change the person's browser.
    const options = { noDefaults: true, timeout };
    // Each try attaches afresh; one that failed is detached, so that it does not count as a client.
    const target = typeof devtools === 'string' ? devtools : await devtoolsTransport(devtools);
    try {
      return typeof target === 'string'
        ? await chromium.connectOverCDP(target, options)
        : await chromium.connectOverCDP(target, options);
    } catch (error) {
      if (typeof target !== 'string') target.close();
      if (!(error instanceof errors.TimeoutError)) throw error;
    }
  }
  throw new Error(
    `connecting did not finish within ${CONNECT_ATTEMPT_TIMEOUTS_MS.map(seconds).join(', then ')}; ` +
      'a tab stuck loading its first page can cause this',
  );
}

/** Connects to an already running browser and opens a new tab in its default context, beside the person's. */
export async function openTab(devtools: DevtoolsEndpoint): Promise<OpenTab> {
  const browser = await connect(devtools);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('it has no default browser context');
    const page = await context.newPage();
    return { page, gone: goneSignal(browser, page), release: () => release(browser, page) };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

function goneSignal(browser: Browser, page: Page): AbortSignal {
  const gone = new AbortController();
  const abort = () => gone.abort();
  page.once('close', abort);
  page.once('crash', abort);
  browser.once('disconnected', abort);
  return gone.signal;
}

async function release(browser: Browser, page: Page): Promise<void> {
  const otherTabsOpen = page
    .context()
    .pages()
    .some((other) => other !== page);
  // A headful browser quits when its last tab closes: if the person closed all theirs, leave ours blank.
  const leavePage = otherTabsOpen ? page.close() : page.goto('about:blank');
  await Promise.race([leavePage.catch(() => {}), delay(LEAVE_PAGE_TIMEOUT_MS, undefined, { ref: false })]);
  // Over connectOverCDP, Browser.close() closes only Playwright's DevTools connection (Playwright 1.65 treats
  // it as the "browser process"): the browser and its tabs live on, as the runner's tests check.
  await browser.close().catch(() => {});
}
