import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CdpPipe } from '../../../server/browser/cdp-pipe';
import { chromiumArguments } from '../../../server/browser/chromium-arguments';
import { findChrome } from '../../../server/browser/find-chrome';

export interface RawBrowser {
  child: ChildProcess;
  pipe: CdpPipe;
  folder: string;
}

export function chromePathForBench(): string {
  const chromePath = findChrome();
  if (!chromePath) throw new Error('No Chromium found: install Debian’s chromium or set CHROME_PATH.');
  return chromePath;
}

/**
 * The session's Chromium command line without the service: no relay, the same switches otherwise; on `folder`
 * (a profile used before) or a new one.
 */
export async function launchRaw(chromePath: string, folder?: string): Promise<RawBrowser> {
  folder ??= await mkdtemp(path.join(tmpdir(), 'pp-bench-raw-'));
  const args = chromiumArguments({
    userDataDir: folder,
    headless: true,
    proxyServer: 'direct://',
    fingerprint: {},
    runningAsRoot: process.getuid?.() === 0,
  });
  const child = spawn(chromePath, args, { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const pipe = new CdpPipe(child.stdio[3] as Writable, child.stdio[4] as Readable);
  await pipe.send('Browser.getVersion');
  return { child, pipe, folder };
}

/** Browser.close, then waits for the exit. */
export async function closeRaw(browser: RawBrowser): Promise<void> {
  const exited = once(browser.child, 'exit');
  await browser.pipe.send('Browser.close').catch(() => {});
  await exited;
}

export function removeRawFolder(browser: RawBrowser): Promise<void> {
  return rm(browser.folder, { recursive: true, force: true });
}
