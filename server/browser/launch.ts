import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { chromiumArguments } from './chromium-arguments';
import { fetchBrowserWebSocketUrl, readDevToolsActivePort, removeDevToolsActivePort } from './devtools-port';
import { findBrowserProcess } from './orphans';
import { canonicalPath } from './processes';
import { openProxyRoute, type ProxyRoute } from './proxy-relay';
import { shutDownBrowser, sleep } from './shut-down';
import { describeStartupFailure, STDERR_LOG_FILE } from './startup-failure';

export interface ProxySettings {
  scheme: 'http' | 'https' | 'socks4' | 'socks5';
  host: string;
  port: number;
  username: string | null;
  password: string | null;
}

export interface FingerprintSettings {
  user_agent?: string;
  language?: string;
  timezone?: string;
  screen?: { width: number; height: number };
}

export interface LaunchOptions {
  chromePath: string;
  userDataDir: string;
  headless: boolean;
  proxy: ProxySettings | null;
  fingerprint: FingerprintSettings;
  /** How long Chromium may take to answer on its DevTools port; 20000 when left out. */
  startTimeoutMs?: number;
}

export interface BrowserExit {
  code: number | null;
  signal: string | null;
}

export interface RunningBrowser {
  pid: number;
  /** ws://127.0.0.1:PORT/devtools/browser/ID, as Playwright's and Puppeteer's connectOverCDP take it. */
  cdpUrl: string;
  /**
   * Settles when the browser process ends, for any reason. It does not keep Node running by itself:
   * the browser is meant to be able to outlive the service.
   */
  exited: Promise<BrowserExit>;
  /** Browser.close, then SIGTERM, then SIGKILL; closes the proxy relay; safe to call again. */
  stop(): Promise<void>;
}

/** A launch that did not give a running browser; the message says why in a sentence. */
export class BrowserLaunchError extends Error {
  override name = 'BrowserLaunchError';
}

const DEFAULT_START_TIMEOUT_MS = 20_000;

/**
 * Starts Chromium on a profile folder as a process of its own (its own process group, so it outlives the
 * service and can be adopted or reaped later), and resolves once its DevTools endpoint answers.
 */
export async function launchBrowser(options: LaunchOptions): Promise<RunningBrowser> {
  const userDataDir = prepareUserDataDir(options.userDataDir);
  const route = await openRoute(options.proxy);
  const closeRoute = once(async () => {
    await route?.close().catch(() => {});
  });
  try {
    const child = await spawnChromium(options, userDataDir, route);
    return await awaitDevTools(
      child,
      userDataDir,
      options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      closeRoute,
    );
  } catch (error) {
    await closeRoute();
    throw error;
  }
}

/** Creates the profile folder if needed and returns its canonical path, once no browser is using it. */
function prepareUserDataDir(requestedDir: string): string {
  try {
    mkdirSync(requestedDir, { recursive: true });
  } catch (error) {
    throw new BrowserLaunchError(
      `The profile folder ${requestedDir} cannot be created: ${(error as Error).message}.`,
    );
  }
  const userDataDir = canonicalPath(requestedDir);
  // Checked before touching DevToolsActivePort, which belongs to the running browser.
  const holder = findBrowserProcess(userDataDir);
  if (holder !== null) {
    throw new BrowserLaunchError(
      `The profile folder ${userDataDir} is already in use by Chromium process ${holder}.`,
    );
  }
  removeDevToolsActivePort(userDataDir);
  return userDataDir;
}

async function openRoute(proxy: ProxySettings | null): Promise<ProxyRoute | null> {
  if (proxy === null) return null;
  try {
    return await openProxyRoute(proxy);
  } catch (error) {
    throw new BrowserLaunchError((error as Error).message);
  }
}

interface SpawnedChromium {
  process: ChildProcess;
  pid: number;
  exited: Promise<BrowserExit>;
  exitSeen(): BrowserExit | null;
}

async function spawnChromium(
  options: LaunchOptions,
  userDataDir: string,
  route: ProxyRoute | null,
): Promise<SpawnedChromium> {
  const args = chromiumArguments({
    userDataDir,
    headless: options.headless,
    proxyServer: route?.proxyServer ?? null,
    fingerprint: options.fingerprint,
    runningAsRoot: process.getuid?.() === 0,
  });
  const { timezone } = options.fingerprint;
  // A file, not a pipe: the browser must keep running (and logging) after the service is gone.
  const stderrLog = openSync(join(userDataDir, STDERR_LOG_FILE), 'w');
  let child: ChildProcess;
  try {
    child = spawn(options.chromePath, args, {
      detached: true,
      stdio: ['ignore', 'ignore', stderrLog],
      env: timezone ? { ...process.env, TZ: timezone } : process.env,
    });
  } catch (error) {
    throw cannotStart(options.chromePath, error);
  } finally {
    closeSync(stderrLog);
  }
  let exit: BrowserExit | null = null;
  const exited = new Promise<BrowserExit>((settle) => {
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      settle(exit);
    });
  });
  await new Promise<void>((started, failed) => {
    child.once('spawn', started);
    child.on('error', (error) => failed(cannotStart(options.chromePath, error)));
  });
  const pid = child.pid;
  if (pid === undefined) throw cannotStart(options.chromePath, new Error('no process id'));
  return { process: child, pid, exited, exitSeen: () => exit };
}

function cannotStart(chromePath: string, error: unknown): BrowserLaunchError {
  return new BrowserLaunchError(
    `Chromium could not be started from ${chromePath}: ${(error as Error).message}.`,
  );
}

async function awaitDevTools(
  chromium: SpawnedChromium,
  userDataDir: string,
  timeoutMs: number,
  closeRoute: () => Promise<void>,
): Promise<RunningBrowser> {
  const { pid, exited } = chromium;
  const waitForExit = (ms: number) => settlesWithin(exited, ms);
  let cdpUrl: string;
  try {
    cdpUrl = await pollDevTools(chromium, userDataDir, timeoutMs);
  } catch (error) {
    await shutDownBrowser({ pid, processGroup: pid, webSocketUrl: null, waitForExit });
    throw error;
  }
  chromium.process.unref();
  void exited.then(closeRoute);
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= shutDownBrowser({ pid, processGroup: pid, webSocketUrl: cdpUrl, waitForExit })
      .then(closeRoute)
      .catch((error: unknown) => {
        stopping = null;
        throw error;
      });
    return stopping;
  };
  return { pid, cdpUrl, exited, stop };
}

async function pollDevTools(
  chromium: SpawnedChromium,
  userDataDir: string,
  timeoutMs: number,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const exit = chromium.exitSeen();
    if (exit !== null) throw new BrowserLaunchError(describeStartupFailure(userDataDir, exit));
    const port = readDevToolsActivePort(userDataDir);
    const cdpUrl = port === null ? null : await fetchBrowserWebSocketUrl(port.port);
    if (cdpUrl !== null) return cdpUrl;
    if (Date.now() >= deadline)
      throw new BrowserLaunchError(describeStartupFailure(userDataDir, null, timeoutMs));
    await sleep(25);
  }
}

/** True if the promise settles within `ms`, false otherwise; leaves no timer behind. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((settle) => {
    timer = setTimeout(() => settle(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function once(action: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | null = null;
  return () => {
    result ??= action();
    return result;
  };
}
