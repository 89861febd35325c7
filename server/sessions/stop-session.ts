import type { Session } from '../../lib/api/schemas/sessions';
import { findBrowserProcess, stopOrphanBrowser } from '../browser/orphans';
import { nodeNotAnswering } from '../cluster/peers';
import { profileDataDir } from '../core/data-dir';
import { isDomainError } from '../core/domain-errors';
import { browserCrashes } from '../core/metrics';
import { everything } from '../store/scope';
import {
  findSession,
  LIVE_SESSION_STATUSES,
  markStopped,
  markStopping,
  type SessionRow,
  type StopReason,
  toSession,
} from '../store/sessions';
import type { RunningBrowser } from './launch-browser';
import { changeSession, isHere, type SessionParts } from './parts';

export interface StopOptions {
  /**
   * False when the browser changed nothing worth keeping (it only read the profile's cookies): its data is not
   * saved, and the stored state stays the one before, which another process restores at the profile's next start.
   */
  saveProfile?: boolean;
}

export interface SessionStopper {
  /** Stops a session here or on the node that runs it (safe to repeat) and answers its final state. */
  stop(row: SessionRow, reason: StopReason, options?: StopOptions): Promise<Session>;
  /** Stops a session that no DevTools client used for the idle timeout, if it still runs. */
  stopIdle(accountId: string, sessionId: string): Promise<void>;
  /**
   * The browser went away without being asked: the person closed it, or it crashed. A stop asked meanwhile waits
   * for this end and answers it, so the session stays recorded as exited.
   */
  exited(row: SessionRow, browser: RunningBrowser): Promise<void>;
  /** Settles once a stop or an exit of the session under way here, if any, is recorded. */
  settled(sessionId: string): Promise<void>;
  /** A live session without a handle in this process: its browser, if still there, was started by an earlier run. */
  stopLeftover(row: SessionRow): Promise<void>;
  /** Ends the browser of a session recorded as stopped (lost by its node), if this process still runs it. */
  endBrowser(sessionId: string): Promise<void>;
}

export function createSessionStopper(parts: SessionParts): SessionStopper {
  const { db, clock, config, log, events, cluster, profileState, browsers, launching } = parts;
  const stopping = new Map<string, Promise<Session>>();
  /** Browsers of sessions stopped as lost, while they end. */
  const ending = new Map<string, Promise<void>>();
  const saveProfile = (row: SessionRow) =>
    profileState.save(row.profile_id, profileDataDir(config.dataDir, row.profile_id), row.lease_generation);

  function stop(row: SessionRow, reason: StopReason, options: StopOptions = {}): Promise<Session> {
    if (!isLive(row))
      return row.stop_reason === 'node_lost' ? endLostBrowser(row) : Promise.resolve(toSession(row));
    if (!isHere(parts, row)) return stopElsewhere(row, reason);
    let pending = stopping.get(row.id);
    if (!pending) {
      pending = stopLive(row, reason, options.saveProfile ?? true).finally(() => stopping.delete(row.id));
      stopping.set(row.id, pending);
    }
    return pending;
  }

  async function stopLive(row: SessionRow, reason: StopReason, save: boolean): Promise<Session> {
    await launching.get(row.id)?.catch(() => {});
    await markStopping(db, clock, row.id);
    const browser = browsers.get(row.id);
    browsers.delete(row.id);
    if (browser) {
      await browser.stop();
      if (save) await saveProfile(row);
    } else await stopLeftover(row);
    log.info('session stopped', { session_id: row.id, reason });
    return toSession(await changeSession(events, (tx) => markStopped(tx, clock, row.id, reason)));
  }

  /** Asks the node that runs it; a node that has left holds no browser any more: the session is lost with it. */
  async function stopElsewhere(row: SessionRow, reason: StopReason): Promise<Session> {
    let asked: boolean;
    try {
      asked = await cluster.peers.stopElsewhere(row, reason);
    } catch (error) {
      if (isDomainError(error)) throw error;
      log.warn('the node running a session did not answer its stop', { session_id: row.id, error });
      throw nodeNotAnswering(row.id);
    }
    if (!asked)
      return toSession(await changeSession(events, (tx) => markStopped(tx, clock, row.id, 'node_lost')));
    return toSession((await findSession(db, everything(row.account_id), row.id)) ?? row);
  }

  /** A session declared lost while its node lived on: its browser is ended wherever it still runs. */
  async function endLostBrowser(row: SessionRow): Promise<Session> {
    if (browsers.has(row.id) || ending.has(row.id)) await endBrowser(row.id);
    else if (row.node_id !== null && row.node_id !== cluster.nodeId)
      await cluster.peers.stopElsewhere(row, 'node_lost').catch((error: unknown) => {
        log.warn('the node that ran a lost session did not answer its stop', { session_id: row.id, error });
      });
    return toSession(row);
  }

  /**
   * Ends the browser of a session stopped as lost. A second caller while it ends (the sweep of lost browsers, and a
   * stop asked through another node) waits for the same end, so that neither answers before the browser is gone.
   */
  async function endBrowser(sessionId: string): Promise<void> {
    const already = ending.get(sessionId);
    if (already) return already;
    const browser = browsers.get(sessionId);
    if (!browser) return;
    browsers.delete(sessionId);
    log.warn('ending the browser of a session stopped as lost', { session_id: sessionId });
    const ended = browser.stop().finally(() => ending.delete(sessionId));
    ending.set(sessionId, ended);
    await ended;
  }

  async function stopLeftover(row: SessionRow): Promise<void> {
    const userDataDir = profileDataDir(config.dataDir, row.profile_id);
    const pid = row.pid ?? (await findBrowserProcess(userDataDir));
    if (pid !== null) await stopOrphanBrowser(pid, userDataDir);
  }

  return {
    stop,
    stopLeftover,
    endBrowser,

    async stopIdle(accountId, sessionId) {
      const row = await findSession(db, everything(accountId), sessionId);
      if (row?.status !== 'running') return;
      log.info('session idle', { session_id: sessionId, idle_ms: config.limits.sessionIdleMs });
      await stop(row, 'idle').catch((error) =>
        log.error('could not stop an idle session', { session_id: sessionId, error }),
      );
    },

    async exited(row, browser) {
      const sessionId = row.id;
      if (!browsers.delete(sessionId)) return; // stopped by us
      const recorded = recordExit(row, browser).finally(() => stopping.delete(sessionId));
      stopping.set(sessionId, recorded);
      await recorded;
    },

    async settled(sessionId) {
      await stopping.get(sessionId)?.catch(() => {});
    },
  };

  async function recordExit(row: SessionRow, browser: RunningBrowser): Promise<Session> {
    const sessionId = row.id;
    log.info('browser exited on its own', { session_id: sessionId });
    browserCrashes.inc();
    // Its helpers may outlive it a moment, still writing the profile: they end before its files are saved.
    await browser
      .stop()
      .catch((error) => log.warn('browser helpers did not end', { session_id: sessionId, error }));
    await saveProfile(row);
    try {
      return toSession(
        await changeSession(events, (tx) => markStopped(tx, clock, sessionId, 'browser_exited')),
      );
    } catch (error) {
      log.error('could not record a browser exit', { session_id: sessionId, error });
      return toSession(row);
    }
  }
}

function isLive(row: SessionRow): boolean {
  return (LIVE_SESSION_STATUSES as readonly string[]).includes(row.status);
}
