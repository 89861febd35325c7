import { readFileSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type RunningBrowser } from '../../../server/sessions/launch-browser';
import {
  CHROMIUM,
  LOOPBACK_ALLOWED,
  makeTempDir,
  relayDevtools,
  startPageServer,
} from '../../support/browser-fixtures';

/* The browser presents its relay's secret, answered over the service's own DevTools session: no flag carries it,
   no tab is added for it, and every kind of first request in every browser context gets through. */

let pages: Awaited<ReturnType<typeof startPageServer>>;
let folder: ReturnType<typeof makeTempDir>;
let browser: RunningBrowser;
let cdp: Browser;
let closeDevtools: () => Promise<void>;

beforeAll(async () => {
  pages = await startPageServer();
  folder = makeTempDir('relay-credentials-');
  browser = await launchBrowser({
    chromePath: CHROMIUM,
    userDataDir: folder.path,
    headless: true,
    proxy: null,
    fingerprint: {},
    egress: LOOPBACK_ALLOWED,
  });
  const devtools = await relayDevtools(browser);
  closeDevtools = devtools.close;
  cdp = await chromium.connectOverCDP(devtools.url);
}, 60_000);

afterAll(async () => {
  await cdp?.close().catch(() => {});
  await closeDevtools?.();
  await browser?.stop();
  await pages?.close();
  folder?.remove();
});

/** A request from a dedicated worker of a page with no network of its own; true once the site saw it. */
const fromWorker = (url: string) => `new Promise((resolve) => {
  const source = ${JSON.stringify(`fetch(${JSON.stringify(url)}, { mode: 'no-cors' }).then(() => postMessage(true), () => postMessage(false))`)};
  const worker = new Worker(URL.createObjectURL(new Blob([source])));
  worker.onmessage = (event) => resolve(event.data);
})`;

describe('the relay’s secret', () => {
  it('is on no command line of the browser’s processes', () => {
    const commandLine = readFileSync(`/proc/${browser.pid}/cmdline`, 'utf8');
    expect(commandLine).toContain('--proxy-server=http://127.0.0.1:');
    expect(commandLine).not.toMatch(/@127\.0\.0\.1|proxy-auth|session:/);
  });

  it('adds no target a DevTools client can see (Chromium’s own browser_ui ones are there without it too)', async () => {
    const session = await cdp.newBrowserCDPSession();
    const { targetInfos } = await session.send('Target.getTargets');
    const seen = targetInfos.filter(({ type }) => type !== 'browser_ui');
    expect(seen.map(({ type, url }) => `${type} ${url}`)).toEqual(['page about:blank']);
  });

  it('lets a tab of the default context load pages, then a second tab with no challenge of its own', async () => {
    const context = cdp.contexts()[0];
    if (!context) throw new Error('no default context');
    for (const path of ['/', '/?second']) {
      const page = await context.newPage();
      await page.goto(`${pages.origin}${path}`);
      expect(await page.textContent('p')).toBe('hello');
      await page.close();
    }
  });

  it('lets a new browser context’s first request come from a worker, and its later ones from a page', async () => {
    const discovery = await cdp.newBrowserCDPSession();
    const created: string[] = [];
    discovery.on('Target.targetCreated', ({ targetInfo }) => {
      if (targetInfo.type !== 'browser_ui') created.push(targetInfo.type);
    });
    await discovery.send('Target.setDiscoverTargets', { discover: true });
    created.length = 0;
    const context = await cdp.newContext();
    try {
      const page = await context.newPage();
      await page.setContent('<p>no network</p>');
      const seen = pages.requests.length;
      expect(await page.evaluate(fromWorker(`${pages.origin}/`))).toBe(true);
      expect(pages.requests.length).toBe(seen + 1);
      await page.goto(`${pages.origin}/`);
      expect(await page.textContent('p')).toBe('hello');
      // The client's tab and its worker: the service opened nothing to answer the relay.
      expect(created).toEqual(['page', 'worker']);
    } finally {
      await context.close();
      await discovery.detach();
    }
  });

  it('lets every one of several new contexts browse at once', async () => {
    const contexts = await Promise.all([1, 2, 3].map(() => cdp.newContext()));
    try {
      const texts = await Promise.all(
        contexts.map(async (context) => {
          const page = await context.newPage();
          await page.goto(`${pages.origin}/`);
          return page.textContent('p');
        }),
      );
      expect(texts).toEqual(['hello', 'hello', 'hello']);
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });

  it('lets a tab opened straight at an address load it, in the default context and in a new one', async () => {
    const session = await cdp.newBrowserCDPSession();
    const { browserContextId } = await session.send('Target.createBrowserContext');
    const reached = (path: string) => pages.requests.some((request) => request.path === path);
    try {
      for (const [path, context] of [
        ['/straight-default', undefined],
        ['/straight-new', browserContextId],
      ] as const) {
        await session.send('Target.createTarget', {
          url: `${pages.origin}${path}`,
          ...(context ? { browserContextId: context } : {}),
        });
        await expect.poll(() => reached(path), { timeout: 10_000 }).toBe(true);
      }
    } finally {
      await session.send('Target.disposeBrowserContext', { browserContextId });
      await session.detach();
    }
  });
});
