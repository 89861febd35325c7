import type { Plan } from '../../lib/api/schemas/account';
import type { Session } from '../../lib/api/schemas/sessions';
import { sessionCap } from '../accounts/plans';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
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
import { NO_PEERS, type Peers } from '../cluster/peers';
import type { Config } from '../config';
import { profileDataDir } from '../data-dir';
import type { Database, Queryable } from '../db/driver';
import { Conflict, isDomainError, NotFound, PlanLimit, Unavailable } from '../domain-errors';
import type { EventLog } from '../events/event-log';
import type { Logger } from '../log';
import { findPlan } from '../store/accounts';
import { getProfileLaunchSettings } from '../store/profiles';
import {
  findLiveSessionsOfNode,
  findOrphanedSessions,
  findSession,
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
import { CdpTokens } from './cdp-tokens';
import { createProfileStateSync, type ProfileStateSync } from './profile-state';

export interface SessionManagerDeps {
  db: Database;
  clock: Clock;
  config: Pick<Config, 'dataDir' | 'chromePath' | 'headless' | 'egress' | 'limits'>;
  log: Logger;
  /** Where every change of a session is reported (`session.*` events), with the change. */
  events: EventLog;
  launch?: (options: LaunchOptions) => Promise<RunningBrowser>;
  tokens?: CdpTokens;
  /** This process among others on one database; alone when not given. */
  cluster?: ClusterSeat;
  /** Restores a profile's browser data before its browser starts and saves it once it stopped. */
  profileState?: ProfileStateSync;
}

/** What the sessions need to know of the cluster: who this node is, whether it is leaving, and the others. */
export interface ClusterSeat {
  nodeId: string;
  draining(): boolean;
  peers: Peers;
}

const ALONE: ClusterSeat = { nodeId: 'nod_alone', draining: () => false, peers: NO_PEERS };

export interface SessionManager {
  /**
   * Starts a browser for the profile within the account's caps, here when this node has room, else on a node
   * that has; answers the running row.
   */
  start(accountId: string, profileId: string, headless?: boolean): Promise<SessionRow>;
  /** Starts it on this node, or refuses with `at_capacity` (another node asked this one). */
  startHere(accountId: string, profileId: string, headless?: boolean): Promise<SessionRow>;
  /** The API's view of a session: while it runs, its DevTools address on `origin` with a fresh token. */
  view(row: SessionRow, origin: string): Session;
  /** The running session's DevTools address on this process's own address, for the automation runner. */
  localCdpUrl(row: SessionRow): string | null;
  /** What the DevTools endpoint relays to, for a session this process runs. */
  devtoolsOf(sessionId: string): CdpMultiplexer | null;
  /** Told once the service listens (the runner connects back through it). */
  listeningAt(origin: string): void;
  /** Stops a session (safe to repeat) and answers its final state. */
  stop(row: SessionRow, reason: StopReason): Promise<Session>;
  /** Stops the profile's live session, if it has one, and resolves once it is recorded as stopped. */
  stopForProfile(accountId: string, profileId: string, reason: StopReason): Promise<void>;
  /** On start-up: stops browsers a previous run of this node left behind and marks their sessions stopped. */
  reconcile(): Promise<void>;
  /** Marks `node_lost` the live sessions of nodes that left the cluster without stopping them. */
  sweepOrphans(): Promise<void>;
  /** On shutdown: stops every browser this process started. */
  stopAll(reason: StopReason): Promise<void>;
}

/** A machine at its browser cap frees a slot when any session stops; a minute is a fair first wait. */
const CAPACITY_RETRY_AFTER_S = 60;

/** Sessions: one real Chromium per profile, its state in the sessions table, the process handles in memory. */
export function createSessionManager(deps: SessionManagerDeps): SessionManager {
  const { db, clock, config, log, events } = deps;
  const { limits } = config;
  const launch = deps.launch ?? launchBrowser;
  const tokens = deps.tokens ?? new CdpTokens();
  const cluster = deps.cluster ?? ALONE;
  const profileState =
    deps.profileState ?? createProfileStateSync({ db, clock, log, maxBytes: limits.maxProfileStateBytes });
  const browsers = new Map<string, RunningBrowser>();
  const launching = new Map<string, Promise<unknown>>();
  const stopping = new Map<string, Promise<Session>>();
  const idleTimers = new Map<string, NodeJS.Timeout>();
  /** Browsers this process runs or is starting: taken before the first await, so the cap holds under a burst. */
  let slotsTaken = 0;
  let localOrigin: string | null = null;

  /** Applies a change of a session and reports it as `session.<its new status>` in the same transaction. */
  function changeSession(change: (tx: Queryable) => Promise<SessionRow>): Promise<SessionRow> {
    return events.transaction(async (tx, emit) => {
      const row = await change(tx);
      if (row.status !== 'stopping') await emit(row.account_id, `session.${row.status}`, toSession(row));
      return row;
    });
  }

  async function start(
    accountId: string,
    profileId: string,
    headless = config.headless,
  ): Promise<SessionRow> {
    if (hasRoom()) return startHere(accountId, profileId, headless);
    const elsewhere = await cluster.peers.startElsewhere(accountId, profileId, headless);
    if (elsewhere === null) throw atCapacity(limits.maxBrowsers);
    const row = await findSession(db, accountId, elsewhere);
    if (!row) throw new Error(`session ${elsewhere} started elsewhere vanished`);
    return row;
  }

  async function startHere(
    accountId: string,
    profileId: string,
    headless = config.headless,
  ): Promise<SessionRow> {
    const [settings, plan] = await Promise.all([
      getProfileLaunchSettings(db, accountId, profileId),
      findPlan(db, accountId),
    ]);
    if (!settings || !plan) throw new NotFound('profile');
    const chromePath = chromeToLaunch(config.chromePath, log);
    takeSlot();
    let slotHeld = true;
    const releaseSlot = () => {
      if (slotHeld) slotsTaken -= 1;
      slotHeld = false;
    };
    let row: SessionRow;
    try {
      const cap = sessionCap(plan, limits.enterpriseMaxSessions);
      const inserted = await events.transaction(async (tx, emit) => {
        const outcome = await insertStartingSession(tx, clock, {
          accountId,
          profileId,
          headless,
          cap,
          nodeId: cluster.nodeId,
        });
        if ('row' in outcome) await emit(accountId, 'session.starting', toSession(outcome.row));
        return outcome;
      });
      if ('refused' in inserted) {
        if (inserted.refused === 'account_at_cap') throw sessionLimit(plan, cap);
        throw sessionExists(await findSessionOfProfile(db, accountId, profileId));
      }
      row = inserted.row;
    } catch (error) {
      releaseSlot();
      throw error;
    }

    const userDataDir = profileDataDir(config.dataDir, profileId);
    const launched = profileState.restore(profileId, userDataDir).then(() =>
      launch({
        chromePath,
        userDataDir,
        headless,
        proxy: settings.proxy,
        fingerprint: settings.fingerprint,
        egress: config.egress,
        onEgressRefused: (detail) => log.info('egress refused', { session_id: row.id, detail }),
      }),
    );
    launching.set(row.id, launched);
    try {
      const browser = await launched;
      browsers.set(row.id, browser);
      void browser.exited.then(() => {
        releaseSlot();
        return onBrowserExit(row, browser);
      });
      watchIdle(row, browser.devtools);
      log.info('session started', { session_id: row.id, profile_id: profileId, pid: browser.pid });
      return await changeSession((tx) => markRunning(tx, clock, row.id, browser));
    } catch (error) {
      releaseSlot();
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
      await changeSession((tx) => markFailed(tx, clock, row.id, detail));
      throw new Unavailable('browser_unavailable', detail, { sessionId: row.id });
    } finally {
      launching.delete(row.id);
    }
  }

  function hasRoom(): boolean {
    return slotsTaken < limits.maxBrowsers && !cluster.draining();
  }

  function takeSlot(): void {
    if (!hasRoom()) throw atCapacity(limits.maxBrowsers);
    slotsTaken += 1;
  }

  /** A session no DevTools client (the runner is one) has used for the idle timeout is stopped as `idle`. */
  function watchIdle(session: SessionRow, devtools: CdpMultiplexer): void {
    if (limits.sessionIdleMs === 0) return;
    const sessionId = session.id;
    const arm = () => {
      clearTimeout(idleTimers.get(sessionId));
      const timer = setTimeout(() => void stopIdle(session.account_id, sessionId), limits.sessionIdleMs);
      idleTimers.set(sessionId, timer.unref());
    };
    arm();
    devtools.onClientCount((count) => {
      if (count > 0) clearTimeout(idleTimers.get(sessionId));
      else if (browsers.has(sessionId)) arm();
    });
  }

  async function stopIdle(accountId: string, sessionId: string): Promise<void> {
    const row = await findSession(db, accountId, sessionId);
    if (row?.status !== 'running') return;
    log.info('session idle', { session_id: sessionId, idle_ms: limits.sessionIdleMs });
    await stop(row, 'idle').catch((error) =>
      log.error('could not stop an idle session', { session_id: sessionId, error }),
    );
  }

  /** The browser went away without being asked: the person closed it, or it crashed. */
  async function onBrowserExit(row: SessionRow, browser: RunningBrowser): Promise<void> {
    const sessionId = row.id;
    clearTimeout(idleTimers.get(sessionId));
    idleTimers.delete(sessionId);
    if (!browsers.delete(sessionId)) return; // stopped by us
    log.info('browser exited on its own', { session_id: sessionId });
    // Its helpers may outlive it a moment, still writing the profile: they end before its files are saved.
    await browser
      .stop()
      .catch((error) => log.warn('browser helpers did not end', { session_id: sessionId, error }));
    await profileState.save(row.profile_id, profileDataDir(config.dataDir, row.profile_id));
    await changeSession((tx) => markStopped(tx, clock, sessionId, 'browser_exited')).catch((error) =>
      log.error('could not record a browser exit', { session_id: sessionId, error }),
    );
  }

  function stop(row: SessionRow, reason: StopReason): Promise<Session> {
    if (!isLive(row)) return Promise.resolve(toSession(row));
    if (!isHere(row)) return stopElsewhere(row, reason);
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
    if (browser) {
      await browser.stop();
      await profileState.save(row.profile_id, profileDataDir(config.dataDir, row.profile_id));
    } else await stopLeftover(row);
    log.info('session stopped', { session_id: row.id, reason });
    return toSession(await changeSession((tx) => markStopped(tx, clock, row.id, reason)));
  }

  /** Asks the node that runs it; a node that has left holds no browser any more: the session is lost with it. */
  async function stopElsewhere(row: SessionRow, reason: StopReason): Promise<Session> {
    let asked: boolean;
    try {
      asked = await cluster.peers.stopElsewhere(row, reason);
    } catch (error) {
      if (isDomainError(error)) throw error;
      log.warn('the node running a session did not answer its stop', { session_id: row.id, error });
      throw new Unavailable(
        'browser_unavailable',
        'The machine running this session does not answer; if it is gone, the session is marked stopped within 30 seconds.',
        { retryAfterSeconds: 15, sessionId: row.id },
      );
    }
    if (!asked) return toSession(await changeSession((tx) => markStopped(tx, clock, row.id, 'node_lost')));
    return toSession((await findSession(db, row.account_id, row.id)) ?? row);
  }

  /** Whether this node runs (or ran, before a restart) the session's browser. */
  function isHere(row: SessionRow): boolean {
    return row.node_id === null || row.node_id === cluster.nodeId || browsers.has(row.id);
  }

  /** A live session without a handle in this process: its browser, if still there, was started by an earlier run. */
  async function stopLeftover(row: SessionRow): Promise<void> {
    const userDataDir = profileDataDir(config.dataDir, row.profile_id);
    const pid = row.pid ?? findBrowserProcess(userDataDir);
    if (pid !== null) await stopOrphanBrowser(pid, userDataDir);
  }

  /** A running session's DevTools path: served here, or relayed by any node to the one that runs it. */
  function cdpPath(row: SessionRow): string | null {
    if (row.status !== 'running') return null;
    return browsers.has(row.id) || !isHere(row) ? tokens.path(row.id) : null;
  }

  return {
    start,
    startHere,
    stop,
    view(row, origin) {
      const path = cdpPath(row);
      return toSession(row, path === null ? null : `${origin.replace(/^http/, 'ws')}${path}`);
    },
    localCdpUrl(row) {
      const path = cdpPath(row);
      return path === null || localOrigin === null ? null : `${localOrigin.replace(/^http/, 'ws')}${path}`;
    },
    devtoolsOf(sessionId) {
      return browsers.get(sessionId)?.devtools ?? null;
    },
    listeningAt(origin) {
      localOrigin = origin;
    },
    async stopForProfile(accountId, profileId, reason) {
      const row = await findSessionOfProfile(db, accountId, profileId);
      if (row) await stop(row, reason);
    },
    async reconcile() {
      const leftovers = await findLiveSessionsOfNode(db, cluster.nodeId);
      for (const row of leftovers) {
        await stopLeftover(row);
        await changeSession((tx) => markStopped(tx, clock, row.id, 'service_shutdown'));
      }
      if (leftovers.length > 0)
        log.info('reconciled sessions left by an earlier run', { count: leftovers.length });
    },
    async sweepOrphans() {
      for (const row of await findOrphanedSessions(db)) {
        log.warn('session lost with its node', { session_id: row.id, node_id: row.node_id });
        await changeSession((tx) => markStopped(tx, clock, row.id, 'node_lost'));
      }
    },
    async stopAll(reason) {
      const live = (await findLiveSessionsOfNode(db, cluster.nodeId)).filter(
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
  throw new Unavailable(
    'browser_unavailable',
    configured
      ? `The service's CHROME_PATH setting does not name an executable file. ${CHROME_INSTALL_HINT}`
      : `No Chrome or Chromium was found on the service's machine. ${CHROME_INSTALL_HINT}`,
  );
}

function atCapacity(maxHere: number): Unavailable {
  return new Unavailable(
    'at_capacity',
    `The service is running as many browsers as its machines can hold (${maxHere} on this one, and no other has room); try again in a minute.`,
    { retryAfterSeconds: CAPACITY_RETRY_AFTER_S },
  );
}

function sessionLimit(plan: Plan, cap: number): PlanLimit {
  return new PlanLimit(
    'session_limit',
    `Your ${plan} plan allows ${cap} session${cap === 1 ? '' : 's'} at once; stop one to start another.`,
  );
}

function isLive(row: SessionRow): boolean {
  return (LIVE_SESSION_STATUSES as readonly string[]).includes(row.status);
}

function sessionExists(live: SessionRow | null): Conflict {
  return new Conflict(
    'session_exists',
    'This profile already has a running session; stop it first or use it.',
    live?.id ?? null,
  );
}
