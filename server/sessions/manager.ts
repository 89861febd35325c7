import type { Session } from '../../lib/api/schemas/sessions';
import { CHROME_INSTALL_HINT, findChrome } from '../browser/find-chrome';
import {
  BrowserLaunchError,
  type LaunchOptions,
  launchBrowser,
  type RunningBrowser,
} from '../browser/launch';
import { findBrowserProcess, stopOrphanBrowser } from '../browser/orphans';
import { withoutPaths } from '../browser/startup-failure';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { profileDataDir } from '../data-dir';
import type { Database } from '../db/driver';
import { notFound, ProblemError } from '../http/problem';
import type { Logger } from '../log';
import { getProfileLaunchSettings } from '../store/profiles';
import {
  findLiveSessions,
  findSessionOfProfile,
  insertStartingSession,
  LIVE_SESSION_STATUSES,
  markFailed,
  markRunning,
  markStopped,
  markStopping,
  type SessionRow,
  type StopReason,
  toSession,
} from '../store/sessions';

export interface SessionManagerDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'dataDir' | 'chromePath' | 'headless'>;
  log: Logger;
  launch?: (options: LaunchOptions) => Promise<RunningBrowser>;
}

export interface SessionManager {
  start(accountId: string, profileId: string, headless?: boolean): Promise<Session>;
  /** Stops a session (safe to repeat) and answers its final state. */
  stop(row: SessionRow, reason: StopReason): Promise<Session>;
  /** Stops the profile's live session, if it has one, and resolves once it is recorded as stopped. */
  stopForProfile(accountId: string, profileId: string, reason: StopReason): Promise<void>;
  /** On start-up: stops browsers a previous run left behind and marks their sessions stopped. */
  reconcile(): Promise<void>;
  /** On shutdown: stops every browser this process started. */
  stopAll(reason: StopReason): Promise<void>;
}

/** Sessions: one real Chromium per profile, its state in the sessions table, the process handles in memory. */
export function createSessionManager(deps: SessionManagerDeps): SessionManager {
  const { db, clock, config, log } = deps;
  const launch = deps.launch ?? launchBrowser;
  const browsers = new Map<string, RunningBrowser>();
  const launching = new Map<string, Promise<unknown>>();
  const stopping = new Map<string, Promise<Session>>();

  async function start(accountId: string, profileId: string, headless = config.headless): Promise<Session> {
    const settings = await getProfileLaunchSettings(db, accountId, profileId);
    if (!settings) throw notFound('profile');
    const chromePath = chromeToLaunch(config.chromePath, log);
    const row = await insertStartingSession(db, clock, { accountId, profileId, headless });
    if (!row) throw sessionExists(await findSessionOfProfile(db, accountId, profileId));

    const userDataDir = profileDataDir(config.dataDir, profileId);
    const launched = launch({
      chromePath,
      userDataDir,
      headless,
      proxy: settings.proxy,
      fingerprint: settings.fingerprint,
    });
    launching.set(row.id, launched);
    try {
      const browser = await launched;
      browsers.set(row.id, browser);
      void browser.exited.then(() => onBrowserExit(row.id));
      log.info('session started', { session_id: row.id, profile_id: profileId, pid: browser.pid });
      return toSession(await markRunning(db, clock, row.id, browser));
    } catch (error) {
      // The answer (and the session's `error`) shows no file path of the service's machine; the log has them.
      const detail =
        error instanceof BrowserLaunchError
          ? withoutPaths(error.message, userDataDir)
          : 'The browser could not be started for this profile.';
      if (error instanceof BrowserLaunchError)
        log.warn('browser launch failed', {
          session_id: row.id,
          profile_dir: userDataDir,
          reason: error.message,
        });
      else log.error('browser launch failed', { session_id: row.id, error });
      await markFailed(db, clock, row.id, detail);
      throw new ProblemError({
        status: 503,
        code: 'browser_unavailable',
        detail,
        extensions: { session_id: row.id },
      });
    } finally {
      launching.delete(row.id);
    }
  }

  /** The browser went away without being asked: the person closed it, or it crashed. */
  async function onBrowserExit(sessionId: string): Promise<void> {
    if (!browsers.delete(sessionId)) return; // stopped by us
    log.info('browser exited on its own', { session_id: sessionId });
    await markStopped(db, clock, sessionId, 'browser_exited').catch((error) =>
      log.error('could not record a browser exit', { session_id: sessionId, error }),
    );
  }

  function stop(row: SessionRow, reason: StopReason): Promise<Session> {
    if (!isLive(row)) return Promise.resolve(toSession(row));
    let pending = stopping.get(row.id);
    if (!pending) {
      pending = stopLive(row, reason).finally(() => stopping.delete(row.id));
      stopping.set(row.id, pending);
    }
    return pending;
  }

  async function stopLive(row: SessionRow, reason: StopReason): Promise<Session> {
    await launching.get(row.id)?.catch(() => {});
    await markStopping(db, clock, row.id);
    const browser = browsers.get(row.id);
    browsers.delete(row.id);
    if (browser) await browser.stop();
    else await stopLeftover(row);
    log.info('session stopped', { session_id: row.id, reason });
    return toSession(await markStopped(db, clock, row.id, reason));
  }

  /** A live session without a handle in this process: its browser, if still there, was started by an earlier run. */
  async function stopLeftover(row: SessionRow): Promise<void> {
    const userDataDir = profileDataDir(config.dataDir, row.profile_id);
    const pid = row.pid ?? findBrowserProcess(userDataDir);
    if (pid !== null) await stopOrphanBrowser(pid, userDataDir);
  }

  return {
    start,
    stop,
    async stopForProfile(accountId, profileId, reason) {
      const row = await findSessionOfProfile(db, accountId, profileId);
      if (row) await stop(row, reason);
    },
    async reconcile() {
      const leftovers = await findLiveSessions(db);
      for (const row of leftovers) {
        await stopLeftover(row);
        await markStopped(db, clock, row.id, 'service_shutdown');
      }
      if (leftovers.length > 0)
        log.info('reconciled sessions left by an earlier run', { count: leftovers.length });
    },
    async stopAll(reason) {
      const live = (await findLiveSessions(db)).filter(
        (row) => browsers.has(row.id) || launching.has(row.id),
      );
      await Promise.all(live.map((row) => stop(row, reason)));
    },
  };
}

/**
 * CHROME_PATH when set (and then only it: a typo should not silently launch another browser), else a search.
 * The path goes to the log, not to the client: no answer shows a file path of the service's machine.
 */
function chromeToLaunch(configured: string | null, log: Logger): string {
  const found = configured ? findChrome({ CHROME_PATH: configured, PATH: '' }) : findChrome();
  if (found && (!configured || found === configured)) return found;
  if (configured) log.warn('CHROME_PATH is not an executable file', { chrome_path: configured });
  throw new ProblemError({
    status: 503,
    code: 'browser_unavailable',
    detail: configured
      ? `The service's CHROME_PATH setting does not name an executable file. ${CHROME_INSTALL_HINT}`
      : `No Chrome or Chromium was found on the service's machine. ${CHROME_INSTALL_HINT}`,
  });
}

function isLive(row: SessionRow): boolean {
  return (LIVE_SESSION_STATUSES as readonly string[]).includes(row.status);
}

function sessionExists(live: SessionRow | null): ProblemError {
  return new ProblemError({
    status: 409,
    code: 'session_exists',
    detail: 'This profile already has a running session; stop it first or use it.',
    extensions: live ? { session_id: live.id } : {},
  });
}
