import {
  canonicalPath,
  processesUsingUserDataDir,
  processGroupOf,
  readCommandLine,
  userDataDirArgument,
} from '../core/processes';
import { shutDownBrowser, sleep } from './shut-down';

/**
 * True when `pid` is alive and is the browser process (not a helper) of `userDataDir`: a stored pid may
 * since have been given to another program.
 */
export function isBrowserProcess(pid: number, userDataDir: string): boolean {
  const args = readCommandLine(pid);
  if (args === null) return false;
  return (
    args.includes(userDataDirArgument(canonicalPath(userDataDir))) &&
    !args.some((arg) => arg.startsWith('--type='))
  );
}

/** The pid of the browser running on `userDataDir`, whoever started it, or null. */
export async function findBrowserProcess(userDataDir: string): Promise<number | null> {
  const absoluteDir = canonicalPath(userDataDir);
  return (
    (await processesUsingUserDataDir(absoluteDir)).find((pid) => isBrowserProcess(pid, absoluteDir)) ?? null
  );
}

/**
 * Stops a browser left running by an earlier run of the service (it ends with its pipe, so this finds one only
 * while it is still shutting down, or one started by hand on the profile): SIGTERM, then SIGKILL.
 * Does nothing when `pid` is not that profile's browser any more.
 */
export async function stopOrphanBrowser(pid: number, userDataDir: string): Promise<void> {
  if (!isBrowserProcess(pid, userDataDir)) return;
  await shutDownBrowser({
    pid,
    processGroup: processGroupOf(pid) === pid ? pid : null,
    requestClose: null,
    waitForExit: (ms) => waitUntilGone(pid, userDataDir, ms),
  });
}

async function waitUntilGone(pid: number, userDataDir: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isBrowserProcess(pid, userDataDir)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}
