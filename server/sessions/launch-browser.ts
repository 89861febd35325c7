import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CdpMultiplexer } from '../browser/cdp-multiplexer';
import { findBrowserProcess } from '../browser/orphans';
import { openSessionRelay, type SessionRelay } from '../browser/proxy-relay';
import { shutDownBrowser } from '../browser/shut-down';
import { once } from '../core/once';
import { canonicalPath } from '../core/processes';
import { settlesWithin } from '../core/time-limit';
import { BrowserLaunchError, type LaunchOptions } from './launch-options';
import { attachSteps, type ClientRules, stepSwitches } from './launch-steps/all-steps';
import { answersWithin, type BrowserExit, type SpawnedChromium, spawnChromium } from './spawn-chromium';

export interface RunningBrowser {
  pid: number;
  /** The browser's DevTools protocol, shared by any number of clients, each confined by the CDP policy. */
  devtools: CdpMultiplexer;
  /** Settles when the browser process ends, for any reason (it ends with the service, whose pipe it needs). */
  exited: Promise<BrowserExit>;
  /** Browser.close, then SIGTERM, then SIGKILL; closes the relay; safe to call again. */
  stop(): Promise<void>;
  /** The egress policy's sentence if it recently refused this browser a request to `host`, else null. */
  egressRefusalOf(host: string): string | null;
}

/** A launch under way: what it was asked, and the relay it opened (closed once, whatever ends first). */
interface Launch {
  options: LaunchOptions;
  userDataDir: string;
  relay: SessionRelay;
  closeRelay(): Promise<void>;
}

const DEFAULT_START_TIMEOUT_MS = 20_000;
const CLOSE_REQUEST_MS = 2_000;

/**
 * Starts Chromium on a profile folder as a process group of its own, driven over --remote-debugging-pipe (no
 * DevTools port on any interface) with all its traffic through its own relay, and resolves once DevTools answers
 * and every launch step (launch-steps/) is in force.
 */
export async function launchBrowser(options: LaunchOptions): Promise<RunningBrowser> {
  const userDataDir = await prepareUserDataDir(options.userDataDir);
  const relay = await openRelay(options);
  const closeRelay = once(() => relay.close().catch(() => {}));
  try {
    const chromium = await spawnChromium(options, userDataDir, relay.proxyServer, stepSwitches(options));
    await relay.challenge(chromium.pid);
    return await attach(chromium, { options, userDataDir, relay, closeRelay });
  } catch (error) {
    await closeRelay();
    throw error;
  }
}

/** Creates the profile folder if needed and returns its canonical path, once no browser is using it. */
async function prepareUserDataDir(requestedDir: string): Promise<string> {
  try {
    await mkdir(requestedDir, { recursive: true });
  } catch (error) {
    throw new BrowserLaunchError(
      `The profile folder ${requestedDir} cannot be created: ${(error as Error).message}.`,
    );
  }
  const userDataDir = canonicalPath(requestedDir);
  const holder = await findBrowserProcess(userDataDir);
  if (holder !== null) {
    throw new BrowserLaunchError(
      `The profile folder ${userDataDir} is already in use by Chromium process ${holder}.`,
    );
  }
  return userDataDir;
}

async function openRelay(options: LaunchOptions): Promise<SessionRelay> {
  try {
    return await openSessionRelay({
      upstream: options.proxy,
      policy: options.egress,
      onRefused: options.onEgressRefused,
      limits: options.relayLimits,
    });
  } catch (error) {
    throw new BrowserLaunchError((error as Error).message);
  }
}

/** Once DevTools answers, puts the launch steps in force and opens the browser to DevTools clients under them. */
async function attach(chromium: SpawnedChromium, launch: Launch): Promise<RunningBrowser> {
  const { pid, exited, pipe } = chromium;
  const { options, userDataDir, relay, closeRelay } = launch;
  const waitForExit = (ms: number) => settlesWithin(exited, ms);
  // Chromium may close its pipe before it answers: a close the pipe went away after is delivered too.
  const requestClose = () =>
    settlesWithin(
      pipe.send('Browser.close').catch(() => undefined),
      CLOSE_REQUEST_MS,
    );
  let rules: ClientRules;
  try {
    await answersWithin(chromium, userDataDir, options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS);
    rules = await attachSteps({
      pipe,
      launch: options,
      downloadDir: join(userDataDir, 'Downloads'),
      relayCredentials: relay.credentials,
    });
  } catch (error) {
    await shutDownBrowser({ pid, processGroup: pid, requestClose: null, waitForExit });
    throw error;
  }
  // The browser needs the pipe, so it ends with the service; the pipe alone should not keep Node running.
  chromium.process.unref();
  for (const stream of [chromium.process.stdio[3], chromium.process.stdio[4]])
    (stream as unknown as { unref?(): void }).unref?.();
  const devtools = new CdpMultiplexer(pipe, rules.policy, rules.contexts, rules.outgoing);
  void exited.then(() => {
    devtools.closeAll('the browser exited');
    return closeRelay();
  });
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= shutDownBrowser({ pid, processGroup: pid, requestClose, waitForExit })
      .then(closeRelay)
      .catch((error: unknown) => {
        stopping = null;
        throw error;
      });
    return stopping;
  };
  return { pid, devtools, exited, stop, egressRefusalOf: (host) => relay.refusalOf(host) };
}
