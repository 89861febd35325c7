import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, closeSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { belowService } from '../browser/below-service';
import { CdpPipe } from '../browser/cdp-pipe';
import { chromiumArguments } from '../browser/chromium-arguments';
import { describeStartupFailure, STDERR_LOG_FILE } from '../browser/startup-failure';
import { headlessUserAgent } from '../browser/user-agent';
import { settlesWithin } from '../core/time-limit';
import { BrowserLaunchError, type LaunchOptions } from './launch-options';

/** How long after closing its DevTools pipe a dying browser's exit may take to be seen. */
export const PIPE_CLOSE_TO_EXIT_MS = 2_000;

export interface BrowserExit {
  code: number | null;
  signal: string | null;
}

/** Chromium as a child process, driven over its DevTools pipe. */
export interface SpawnedChromium {
  process: ChildProcess;
  pid: number;
  pipe: CdpPipe;
  exited: Promise<BrowserExit>;
  exitSeen(): BrowserExit | null;
}

/**
 * Starts Chromium on the profile folder as a process group of its own, below the service's CPU priority
 * (below-service.ts), with its traffic through `proxyServer`
 * (the session's relay) and the launch steps' `switches` after its own, its stderr in the profile folder.
 */
export async function spawnChromium(
  options: LaunchOptions,
  userDataDir: string,
  proxyServer: string,
  switches: string[],
): Promise<SpawnedChromium> {
  const args = chromiumArguments({
    userDataDir,
    headless: options.headless,
    proxyServer,
    fingerprint: options.fingerprint,
    defaultUserAgent:
      options.headless && !options.fingerprint.user_agent
        ? await headlessUserAgent(options.chromePath)
        : null,
    runningAsRoot: process.getuid?.() === 0,
    cookiesOnly: options.cookiesOnly,
    switches,
  });
  const { timezone } = options.fingerprint;
  // A file, not a pipe: the browser must keep running (and logging) after the service is gone.
  const stderrLog = openSync(join(userDataDir, STDERR_LOG_FILE), 'w');
  let child: ChildProcess;
  try {
    // Started through `nice`, which would otherwise be the one to find no such file.
    accessSync(options.chromePath, constants.X_OK);
    const { command, args: commandArgs } = belowService(options.chromePath, args);
    child = spawn(command, commandArgs, {
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

/** Resolves once the browser answers over its pipe; throws a BrowserLaunchError if it exits or stays silent. */
export async function answersWithin(
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
