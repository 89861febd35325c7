import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devtoolsTransport } from '../../../server/pages/devtools-transport';
import { type OpenTab, openTab } from '../../../server/pages/open-tab';
import type { RunningBrowser } from '../../../server/sessions/launch-browser';
import { launchLoopbackBrowser, makeTempDir, startPageServer } from '../../support/browser-fixtures';

/*
 * The page layer's own connection to a session's browser: Playwright on the browser's DevTools multiplexer in this
 * process, with no HTTP server anywhere in this file. What a cdp_url client is refused, it is refused too, in the
 * same sentences: a tab of a run or an agent is no way around the CDP policy.
 */

let pages: Awaited<ReturnType<typeof startPageServer>>;
let folder: ReturnType<typeof makeTempDir>;
let browser: RunningBrowser;
const opened: OpenTab[] = [];

beforeAll(async () => {
  pages = await startPageServer();
  folder = makeTempDir('open-tab-');
  browser = await launchLoopbackBrowser(folder.path);
}, 60_000);

afterAll(async () => {
  for (const tab of opened) await tab.release();
  await browser?.stop();
  await pages?.close();
  folder?.remove();
});

async function tab(): Promise<OpenTab> {
  const opening = await openTab(browser.devtools);
  opened.push(opening);
  return opening;
}

describe('a tab over the DevTools multiplexer in the process', () => {
  it('loads a page in a tab of its own, counts as a client while open, and gives the browser back', async () => {
    const { page, release } = await tab();
    await page.goto(pages.origin);
    expect(await page.title()).toBe('page server');
    expect(browser.devtools.clientCount).toBe(1);

    await release();
    opened.pop();
    expect(browser.devtools.clientCount).toBe(0);
    expect(page.isClosed()).toBe(true);
    const again = await tab();
    await again.page.goto(pages.origin);
    expect(await again.page.title()).toBe('page server');
  });

  it('works at once on a browser just launched, its first tab still opening', async () => {
    const fresh = makeTempDir('open-tab-fresh-');
    const launched = await launchLoopbackBrowser(fresh.path);
    try {
      const { page, release } = await openTab(launched.devtools);
      expect(await page.evaluate('6 * 7')).toBe(42);
      await page.goto(pages.origin);
      expect(await page.evaluate('document.title')).toBe('page server');
      await release();
    } finally {
      await launched.stop();
      fresh.remove();
    }
  });

  it('is refused what a cdp_url client is refused, in the same sentences', async () => {
    const { page } = await tab();
    const cdp = await page.context().newCDPSession(page);
    await expect(cdp.send('Browser.getBrowserCommandLine')).rejects.toThrow(
      'Browser.getBrowserCommandLine is not available on this service: it shows the service machine’s command line.',
    );
    await expect(cdp.send('DOM.setFileInputFiles', { files: ['/etc/passwd'], nodeId: 1 })).rejects.toThrow(
      'DOM.setFileInputFiles is not available on this service: it reads files from the service’s machine.',
    );
    await expect(page.goto('file:///etc/passwd')).rejects.toThrow(
      'Page.navigate may not open file: addresses on this service.',
    );
    await expect(
      cdp.send('Browser.setDownloadBehavior', { behavior: 'default' }).then(() => 'allowed'),
    ).resolves.toBe('allowed');
  });

  it('answers each of many commands sent at once, in order, including refused ones', async () => {
    const { page } = await tab();
    const cdp = await page.context().newCDPSession(page);
    const answers = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        index % 10 === 0
          ? cdp.send('Browser.getBrowserCommandLine')
          : cdp.send('Runtime.evaluate', { expression: `${index} * 2`, returnByValue: true }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(
      Array.from({ length: 50 }, (_, index) => (index % 10 === 0 ? 'rejected' : 'fulfilled')),
    );
    const values = answers.flatMap((answer) =>
      answer.status === 'fulfilled' ? [(answer.value as { result: { value: number } }).result.value] : [],
    );
    expect(values).toEqual(
      Array.from({ length: 50 }, (_, index) => index).flatMap((index) =>
        index % 10 === 0 ? [] : [index * 2],
      ),
    );
  });

  it('keeps downloads in the profile’s own folder', async () => {
    const { page } = await tab();
    await page.setContent('<a id="get" download="note.txt" href="data:text/plain,hello">get</a>');
    await page.click('#get');
    const downloads = join(folder.path, 'Downloads');
    // Stored under the download's own id, beside its record (downloads/download-setup.ts).
    const saved = () =>
      readdirSync(downloads, { withFileTypes: true }).some(
        (entry) => entry.isFile() && readFileSync(join(downloads, entry.name), 'utf8') === 'hello',
      );
    await expect.poll(saved).toBe(true);
  });

  it('ends, and tells Playwright, when the browser goes away', async () => {
    const transport = await devtoolsTransport(browser.devtools);
    const ended = new Promise<string | undefined>((resolve) => {
      transport.onclose = resolve;
    });
    const { page } = await tab();
    const disconnected = new Promise((resolve) => page.context().browser()?.once('disconnected', resolve));

    await browser.stop();
    await disconnected;
    expect(await ended).toBe('the browser exited');
    expect(browser.devtools.clientCount).toBe(0);
    opened.length = 0;
  });
});
