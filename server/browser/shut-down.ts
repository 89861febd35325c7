import { liveGroupMembers, signalGroup } from '../core/processes';

const GRACEFUL_EXIT_MS = 5000;
const TERMINATE_EXIT_MS = 3000;
const KILL_EXIT_MS = 5000;
/** Its helpers end after it: the network service's writes the cookie database as it goes. */
const HELPERS_EXIT_MS = 3000;

export interface BrowserToShutDown {
  pid: number;
  /** The process group the browser leads with its helpers, or null to signal the browser process alone. */
  processGroup: number | null;
  /** Sends DevTools Browser.close, resolving once it was answered or given up on; null without a DevTools channel. */
  requestClose: (() => Promise<unknown>) | null;
  /** Resolves true as soon as the browser process is gone, false if it is still there after `ms`. */
  waitForExit(ms: number): Promise<boolean>;
}

/**
 * Ends a browser the gentle way first: only Browser.close flushes the profile (after SIGTERM cookies were
 * lost in 4 of 6 runs), then SIGTERM, then SIGKILL, each with a short wait. A browser that has not answered
 * Browser.close (a busy machine) may well be closing: it gets the same wait. Then ends any helper process of its
 * group that outlived it. Resolves once the browser process is gone.
 */
export async function shutDownBrowser(browser: BrowserToShutDown): Promise<void> {
  const groupId = browser.processGroup;
  const signal = (name: NodeJS.Signals) => {
    if (groupId !== null) signalGroup(groupId, name);
    else signalProcess(browser.pid, name);
  };
  let gone = await browser.waitForExit(0);
  if (!gone && browser.requestClose !== null) {
    await browser.requestClose();
    gone = await browser.waitForExit(GRACEFUL_EXIT_MS);
  }
  if (!gone) {
    signal('SIGTERM');
    gone = await browser.waitForExit(TERMINATE_EXIT_MS);
  }
  if (!gone) {
    signal('SIGKILL');
    gone = await browser.waitForExit(KILL_EXIT_MS);
  }
  if (!gone) throw new Error(`Browser process ${browser.pid} did not end even after SIGKILL.`);
  if (groupId !== null) await endHelpers(groupId);
}

async function endHelpers(groupId: number): Promise<void> {
  if (await groupEmptiesWithin(groupId, HELPERS_EXIT_MS)) return;
  signalGroup(groupId, 'SIGKILL');
  await groupEmptiesWithin(groupId, HELPERS_EXIT_MS);
}

async function groupEmptiesWithin(groupId: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while ((await liveGroupMembers(groupId)).length > 0) {
    if (Date.now() >= deadline) return false;
    await sleep(25);
  }
  return true;
}

function signalProcess(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
