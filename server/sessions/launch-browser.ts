import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { CdpMultiplexer } from '../browser/cdp-multiplexer';
import { CdpPipe } from '../browser/cdp-pipe';
import { checkCdpCommand } from '../browser/cdp-policy';
import { chromiumArguments } from '../browser/chromium-arguments';
import { findBrowserProcess } from '../browser/orphans';
import { openSessionRelay, type SessionRelay } from '../browser/proxy-relay';
import {
  answerRelayChallenges,
  type ContextWatcher,
  type RelayCredentials,
} from '../browser/relay-credentials';
import type { RelayLimits } from '../browser/relay-limits';
import { withoutRelayTraces } from '../browser/relay-traces';
import type { FingerprintSettings, ProxySettings } from '../browser/settings';
import { shutDownBrowser } from '../browser/shut-down';
import { describeStartupFailure, STDERR_LOG_FILE } from '../browser/startup-failure';
import { headlessUserAgent } from '../browser/user-agent';
import type { EgressPolicy } from '../core/egress-policy';
import { once } from '../core/once';
import { canonicalPath } from '../core/processes';
import { type DownloadSettings, setUpDownloads } from '../downloads/download-setup';
import { type AppliedIdentity, applyIdentity } from '../identity/apply';
import { keepIdentity } from '../identity/client-commands';
import { identityArguments } from '../identity/launch-arguments';
import type { PresentedIdentity } from '../identity/presented';

export interface LaunchOptions {
  chromePath: string;
  userDataDir: string;
  headless: boolean;
  proxy: ProxySettings | null;
  fingerprint: FingerprintSettings;
  /** The profile's identity, put in force in every target before its scripts run. */
  identity?: PresentedIdentity | null;
  /** Where the browser may connect: every request goes through a relay that enforces it. */
  egress: EgressPolicy;
  /** Told of each destination the egress policy refused. */
  onEgressRefused?(detail: string): void;
  /** How long Chromium may take to answer on its DevTools pipe; 20000 when left out. */
  startTimeoutMs?: number;
  /** How long and how many connections the relay holds; RELAY_LIMITS when left out (tests set shorter ones). */
  relayLimits?: RelayLimits;
  /** Whose the downloads are and the plan's bound on them; unbounded and of no session when left out. */
  downloads?: DownloadSettings;
}

export interface BrowserExit {
  code: number | null;
  signal: string | null;
}

export interface RunningBrowser {
  pid: number;
  /** The browser's DevTools protocol, shared by any number of clients, each confined by the CDP policy. */
  devtools: CdpMultiplexer;
  /** The identity in force, with the engine it presents; null without one. */
  identity: AppliedIdentity | null;
  /** Settles when the browser process ends, for any reason (it ends with the service, whose pipe it needs). */
  exited: Promise<BrowserExit>;
  /** Browser.close, then SIGTERM, then SIGKILL; closes the relay; safe to call again. */
  stop(): Promise<void>;
  /** The egress policy's sentence if it recently refused this browser a request to `host`, else null. */
  egressRefusalOf(host: string): string | null;
}

/** A launch that did not give a running browser; the message says why in a sentence. */
export class BrowserLaunchError extends Error {
  override name = 'BrowserLaunchError';
}

const DEFAULT_START_TIMEOUT_MS = 20_000;
const CLOSE_REQUEST_MS = 2_000;
const PIPE_CLOSE_TO_EXIT_MS = 2_000;

/**
 * Starts Chromium on a profile folder as a process group of its own, driven over --remote-debugging-pipe (no
 * DevTools port on any interface) with all its traffic through its own relay, and resolves once DevTools answers.
 */
export async function launchBrowser(options: LaunchOptions): Promise<RunningBrowser> {
  const userDataDir = prepareUserDataDir(options.userDataDir);
  const relay = await openRelay(options);
  const closeRelay = once(() => relay.close().catch(() => {}));
  try {
    const chromium = await spawnChromium(options, userDataDir, relay);
    await relay.challenge(chromium.pid);
    const running = await awaitDevTools(
      chromium,
      userDataDir,
      options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
      closeRelay,
      options.identity ?? null,
      relay.credentials,
      options.downloads ?? { sessionId: '', maxBytes: Number.POSITIVE_INFINITY },
    );
    return { ...running, egressRefusalOf: (host) => relay.refusalOf(host) };
  } catch (error) {
    await closeRelay();
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
  const holder = findBrowserProcess(userDataDir);
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

interface SpawnedChromium {
  process: ChildProcess;
  pid: number;
  pipe: CdpPipe;
  exited: Promise<BrowserExit>;
  exitSeen(): BrowserExit | null;
}

async function spawnChromium(
  options: LaunchOptions,
  userDataDir: string,
  relay: SessionRelay,
): Promise<SpawnedChromium> {
  const args = [
    ...chromiumArguments({
      userDataDir,
      headless: options.headless,
      proxyServer: relay.proxyServer,
      fingerprint: options.fingerprint,
      defaultUserAgent:
        options.headless && !options.fingerprint.user_agent
          ? await headlessUserAgent(options.chromePath)
          : null,
      runningAsRoot: process.getuid?.() === 0,
    }),
    ...(options.identity ? identityArguments(options.identity, options.headless) : []),
  ];
  const { timezone } = options.fingerprint;
  // A file, not a pipe: the browser must keep running (and logging) after the service is gone.
  const stderrLog = openSync(join(userDataDir, STDERR_LOG_FILE), 'w');
  let child: ChildProcess;
  try {
    child = spawn(options.chromePath, args, {
      detached: true,
      // fd 3 carries DevTools commands to the browser, fd 4 its answers.
      stdio: ['ignore', 'ignore', stderrLog, 'pipe', 'pipe'],
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
  const pipe = new CdpPipe(child.stdio[3] as Writable, child.stdio[4] as Readable);
  return { process: child, pid, pipe, exited, exitSeen: () => exit };
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
  closeRelay: () => Promise<void>,
  presented: PresentedIdentity | null,
  relayCredentials: RelayCredentials,
  downloads: DownloadSettings,
): Promise<Omit<RunningBrowser, 'egressRefusalOf'>> {
  const { pid, exited, pipe } = chromium;
  const waitForExit = (ms: number) => settlesWithin(exited, ms);
  // Chromium may close its pipe before it answers: a close the pipe went away after is delivered too.
  const requestClose = () =>
    settlesWithin(
      pipe.send('Browser.close').catch(() => undefined),
      CLOSE_REQUEST_MS,
    );
  const downloadDir = join(userDataDir, 'Downloads');
  let identity: AppliedIdentity | null = null;
  let contexts: ContextWatcher;
  try {
    await answersWithin(chromium, userDataDir, timeoutMs);
    // Downloads stay in the profile's own folder, not in the service user's home.
    [, identity, contexts] = await Promise.all([
      setUpDownloads(pipe, downloadDir, downloads),
      presented && applyIdentity(pipe, presented),
      answerRelayChallenges(pipe, relayCredentials),
    ]);
  } catch (error) {
    await shutDownBrowser({ pid, processGroup: pid, requestClose: null, waitForExit });
    throw error;
  }
  // The browser needs the pipe, so it ends with the service; the pipe alone should not keep Node running.
  chromium.process.unref();
  for (const stream of [chromium.process.stdio[3], chromium.process.stdio[4]])
    (stream as unknown as { unref?(): void }).unref?.();
  const devtools = new CdpMultiplexer(
    pipe,
    (message) => checkCdpCommand(presented ? keepIdentity(message, presented) : message, downloadDir),
    contexts,
    withoutRelayTraces(relayCredentials),
  );
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
  return { pid, devtools, identity, exited, stop };
}

/** Resolves once the browser answers over its pipe; throws a BrowserLaunchError if it exits or stays silent. */
async function answersWithin(
  chromium: SpawnedChromium,
  userDataDir: string,
  timeoutMs: number,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<'silent'>((settle) => {
    timer = setTimeout(() => settle('silent'), timeoutMs);
  });
  try {
    const outcome = await Promise.race([chromium.pipe.send('Browser.getVersion'), silent]);
    if (outcome === 'silent')
      throw new BrowserLaunchError(describeStartupFailure(userDataDir, null, timeoutMs));
  } catch (error) {
    if (error instanceof BrowserLaunchError) throw error;
    // The pipe closes a moment before the exit is reported: wait for it, to quote the exit code.
    await settlesWithin(chromium.exited, PIPE_CLOSE_TO_EXIT_MS);
    throw new BrowserLaunchError(describeStartupFailure(userDataDir, chromium.exitSeen()));
  } finally {
    clearTimeout(timer);
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
