import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserSuite } from '../../support/browser-fixtures';

/* The browser presents its relay's secret, answered over the service's own DevTools session: no flag carries it,
   no tab is added for it, and every kind of first request in every browser context gets through. */

const suite = browserSuite('relay-credentials-');

/** A request from a dedicated worker of a page with no network of its own; true once the site saw it. */
const fromWorker = (url: string) => `new Promise((resolve) => {
  const source = ${JSON.stringify(`fetch(${JSON.stringify(url)}, { mode: 'no-cors' }).then(() => postMessage(true), () => postMessage(false))`)};
  const worker = new Worker(URL.createObjectURL(new Blob([source])));
  worker.onmessage = (event) => resolve(event.data);
})`;

describe('the relay’s secret', () => {
  it('is on no command line of the browser’s processes', () => {
    const commandLine = readFileSync(`/proc/${suite.browser.pid}/cmdline`, 'utf8');
    expect(commandLine).toContain('--proxy-server=http://127.0.0.1:');
    expect(commandLine).not.toMatch(/@127\.0\.0\.1|proxy-auth|session:/);
  });

  it('adds no target a DevTools client can see (Chromium’s own browser_ui ones are there without it too)', async () => {
    const session = await suite.cdp.newBrowserCDPSession();
    const { targetInfos } = await session.send('Target.getTargets');
    const seen = targetInfos.filter(({ type }) => type !== 'browser_ui');
    expect(seen.map(({ type, url }) => `${type} ${url}`)).toEqual(['page about:blank']);
  });

  it('lets a tab of the default context load pages, then a second tab with no challenge of its own', async () => {
    const context = suite.cdp.contexts()[0];
    if (!context) throw new Error('no default context');
    for (const path of ['/', '/?second']) {
      const page = await context.newPage();
      await page.goto(`${suite.pages.origin}${path}`);
      expect(await page.textContent('p')).toBe('hello');
      await page.close();
    }
  });

  it('lets a new browser context’s first request come from a worker, and its later ones from a page', async () => {
    const discovery = await suite.cdp.newBrowserCDPSession();
    const created: string[] = [];
    discovery.on('Target.targetCreated', ({ targetInfo }) => {
      if (targetInfo.type !== 'browser_ui') created.push(targetInfo.type);
    });
    await discovery.send('Target.setDiscoverTargets', { discover: true });
    created.length = 0;
    const context = await suite.cdp.newContext();
    try {
      const page = await context.newPage();
      await page.setContent('<p>no network</p>');
      const seen = suite.pages.requests.length;
      expect(await page.evaluate(fromWorker(`${suite.pages.origin}/`))).toBe(true);
      expect(suite.pages.requests.length).toBe(seen + 1);
      await page.goto(`${suite.pages.origin}/`);
      expect(await page.textContent('p')).toBe('hello');
      // The client's tab and its worker: the service opened nothing to answer the relay.
      expect(created).toEqual(['page', 'worker']);
    } finally {
      await context.close();
      await discovery.detach();
    }
  });

  it('lets every one of several new contexts browse at once', async () => {
    const contexts = await Promise.all([1, 2, 3].map(() => suite.cdp.newContext()));
    try {
      const texts = await Promise.all(
        contexts.map(async (context) => {
          const page = await context.newPage();
          await page.goto(`${suite.pages.origin}/`);
          return page.textContent('p');
        }),
      );
      expect(texts).toEqual(['hello', 'hello', 'hello']);
    } finally {
      await Promise.all(contexts.map((context) => context.close()));
    }
  });

  it('lets a tab opened straight at an address load it, in the default context and in a new one', async () => {
    const session = await suite.cdp.newBrowserCDPSession();
    const { browserContextId } = await session.send('Target.createBrowserContext');
    const reached = (path: string) => suite.pages.requests.some((request) => request.path === path);
    try {
      for (const [path, context] of [
        ['/straight-default', undefined],
        ['/straight-new', browserContextId],
      ] as const) {
        await session.send('Target.createTarget', {
          url: `${suite.pages.origin}${path}`,
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
