import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { shutDownBrowser } from '../../../server/browser/shut-down';
import { settlesWithin } from '../../../server/core/time-limit';

/**
 * A stand-in for a browser, leading a process group of its own: it says TERM if it gets SIGTERM (where a browser
 * loses the cookies it has not written yet), and ends by itself `closingMs` after it starts, as a browser ends
 * some time after Browser.close.
 */
async function closingProcess(closingMs: number) {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `process.on('SIGTERM', () => { console.log('TERM'); process.exit(0); }); setTimeout(() => {}, ${closingMs}); console.log('up');`,
    ],
    { detached: true, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let said = '';
  child.stdout.on('data', (chunk: Buffer) => {
    said += chunk;
  });
  const exited = once(child, 'exit');
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return { child, exited, said: () => said };
}

/** Shuts the stand-in down as a session's stop does, with `requestClose` as its Browser.close. */
async function shutDown(closingMs: number, requestClose: (() => Promise<unknown>) | null): Promise<string> {
  const browser = await closingProcess(closingMs);
  const pid = browser.child.pid as number;
  await shutDownBrowser({
    pid,
    processGroup: pid,
    requestClose,
    waitForExit: (ms) => settlesWithin(browser.exited, ms),
  });
  return browser.said();
}

describe('shutting a browser down', () => {
  it('waits for a browser to end after Browser.close though it did not answer in time, with no SIGTERM', async () => {
    // Browser.close sent, its answer given up on (the machine was busy): the browser is closing all the same.
    const said = await shutDown(1500, () => settlesWithin(new Promise(() => undefined), 100));
    expect(said).not.toContain('TERM');
  });

  it('sends SIGTERM to a browser still there after the wait', async () => {
    expect(await shutDown(60_000, null)).toContain('TERM');
  });
});
