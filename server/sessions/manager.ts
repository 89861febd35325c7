import type { Session } from '../../lib/api/schemas/sessions';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { Clock } from '../core/clock';
import type { Job } from '../core/lifecycle';
import type { Logger } from '../core/log';
import { settlesWithin } from '../core/time-limit';
import type { Database } from '../db/driver';
import type { EventLog } from '../events/event-log';
import type { Holder } from '../store/leases';
import {
  findLiveSessionsOfNode,
  findSessionOfProfile,
  type SessionRow,
  type StopReason,
} from '../store/sessions';
import { createSlots } from './capacity';
import { createCdpAddresses } from './cdp-address';
import { CdpTokens } from './cdp-tokens';
import { createIdleWatch } from './idle-watch';
import type { RunningBrowser } from './launch-browser';
import type { LaunchOptions } from './launch-options';
import { leaseRenewal } from './lease-renewal';
import { ALONE, type ClusterSeat, type SessionConfig, type SessionParts } from './parts';
import { createProfileStateSync, type ProfileStateSync } from './profile-state';
import { createSessionRecovery } from './recovery';
import { PIPE_CLOSE_TO_EXIT_MS } from './spawn-chromium';
import { createSessionStarter } from './start-session';
import { createSessionStopper, type StopOptions } from './stop-session';

export interface SessionManagerDeps {
  db: Database;
  clock: Clock;
  config: SessionConfig;
  log: Logger;
  /** Where every change of a session is reported (`session.*` events), with the change. */
  events: EventLog;
  launch?: (options: LaunchOptions) => Promise<RunningBrowser>;
  tokens?: CdpTokens;
  /** This process among others on one database; alone when not given. */
  cluster?: ClusterSeat;
  /** Restores a profile's browser data before its browser starts and saves it once it stopped. */
  profileState?: ProfileStateSync;
  /** Told of each tab of a session here that closes, by its DevTools target id. */
  onTabClosed?(sessionId: string, tabId: string): void;
}

export interface SessionManager {
  /**
   * Starts a browser for the profile within the account's caps, here when this node has room, else on a node
   * that has; answers the running row.
   */
  start(accountId: string, profileId: string, holder: Holder, headless?: boolean): Promise<SessionRow>;
  /** Starts it on this node, or refuses with `at_capacity` (another node asked this one). */
  startHere(accountId: string, profileId: string, holder: Holder, headless?: boolean): Promise<SessionRow>;
  /**
   * Starts a headless browser on this node for the profile's cookies only: no window, no request leaves it, and its
   * DevTools take the cookie commands alone. Stop it as any session.
   */
  startForCookies(accountId: string, profileId: string, holder: Holder): Promise<SessionRow>;
  /** The API's view of a session: while it runs, its DevTools address on `origin` with a fresh token. */
  view(row: SessionRow, origin: string): Session;
  /**
   * The running session's DevTools address on this process's own address, relayed to the node that runs it: for
   * a run whose session another node started (one this process runs is reached by `devtoolsOf`).
   */
  localCdpUrl(row: SessionRow): string | null;
  /** The DevTools of a session this process runs: what its `cdp_url` serves, and what runs and agents use. */
  devtoolsOf(sessionId: string): CdpMultiplexer | null;
  /** The egress policy's sentence if it recently refused this process's session a request to `host`. */
  egressRefusalOf(sessionId: string, host: string): string | null;
  /** Notes the tab (its DevTools target id) an agent or a run of this process's session acted on last. */
  markActiveTab(sessionId: string, targetId: string): void;
  /** The tab an agent or a run used last, while the session runs here; null when none has. */
  activeTabOf(sessionId: string): string | null;
  /** Told once the service listens (a run on another node's session connects through it). */
  listeningAt(origin: string): void;
  /** How many more browsers this node may start now. */
  roomHere(): number;
  /** Tells `listener` whenever a browser of this node ends (or fails to start), so that room came. */
  onRoom(listener: () => void): void;
  /** Stops a session (safe to repeat) and answers its final state. */
  stop(row: SessionRow, reason: StopReason, options?: StopOptions): Promise<Session>;
  /**
   * If the session's browser here went away on its own (its pipe closed a moment before its exit is seen), waits
   * until its end is recorded: what used the browser then reads why it failed.
   */
  untilLossRecorded(sessionId: string): Promise<void>;
  /** Stops the profile's live session, if it has one, and resolves once it is recorded as stopped. */
  stopForProfile(accountId: string, profileId: string, reason: StopReason): Promise<void>;
  /** On start-up: stops browsers a previous run of this node left behind and marks their sessions stopped. */
  reconcile(): Promise<void>;
  /** Marks `node_lost` the live sessions of nodes that left the cluster without stopping them. */
  sweepOrphans(): Promise<void>;
  /** Ends the browsers of sessions another node stopped as lost while this one stalled. */
  endLostBrowsers(): Promise<void>;
  /** On shutdown: stops every browser this process started. */
  stopAll(reason: StopReason): Promise<void>;
  /** Renews the leases of this node's sessions while they run. */
  leases: Job;
}

/**
 * Sessions: one real Chromium per profile, its state in the sessions table, the process handles in memory.
 * Each job is its own module (capacity, start, stop, idle watch, DevTools address, recovery); this puts them
 * together over the browsers this process holds.
 */
export function createSessionManager(deps: SessionManagerDeps): SessionManager {
  const { db, clock, config, log } = deps;
  const parts: SessionParts = {
    db,
    clock,
    config,
    log,
    events: deps.events,
    cluster: deps.cluster ?? ALONE,
    profileState:
      deps.profileState ??
      createProfileStateSync({ db, clock, log, maxBytes: config.limits.maxProfileStateBytes }),
    browsers: new Map(),
    launching: new Map(),
  };
  const { browsers, launching, cluster } = parts;
  const stopper = createSessionStopper(parts);
  const idle = createIdleWatch(config.limits.sessionIdleMs, (accountId, sessionId) => {
    void stopper.stopIdle(accountId, sessionId);
  });
  const roomListeners: (() => void)[] = [];
  const slots = createSlots(
    config.limits.maxBrowsers,
    () => cluster.draining(),
    () => {
      for (const listener of roomListeners) listener();
    },
  );
  const starter = createSessionStarter(parts, {
    launch: deps.launch,
    slots,
    idle,
    stopper,
    onTabClosed: deps.onTabClosed,
  });
  const addresses = createCdpAddresses(parts, deps.tokens ?? new CdpTokens());
  // By browser, so a tab is forgotten with the browser that had it.
  const activeTabs = new WeakMap<CdpMultiplexer, string>();
  const recovery = createSessionRecovery(parts, stopper);

  return {
    start: starter.start,
    startHere: starter.startHere,
    startForCookies: starter.startForCookies,
    stop: stopper.stop,
    roomHere: slots.free,
    onRoom: (listener) => void roomListeners.push(listener),
    view: addresses.view,
    localCdpUrl: addresses.localCdpUrl,
    listeningAt: addresses.listeningAt,
    reconcile: recovery.reconcile,
    leases: leaseRenewal(parts, stopper),
    sweepOrphans: recovery.sweepOrphans,
    endLostBrowsers: recovery.endLostBrowsers,
    async untilLossRecorded(sessionId) {
      const browser = browsers.get(sessionId);
      if (browser?.devtools.browserGone) await settlesWithin(browser.exited, PIPE_CLOSE_TO_EXIT_MS);
      await stopper.settled(sessionId);
    },
    devtoolsOf(sessionId) {
      return browsers.get(sessionId)?.devtools ?? null;
    },
    egressRefusalOf(sessionId, host) {
      return browsers.get(sessionId)?.egressRefusalOf(host) ?? null;
    },
    markActiveTab(sessionId, targetId) {
      const devtools = browsers.get(sessionId)?.devtools;
      if (devtools) activeTabs.set(devtools, targetId);
    },
    activeTabOf(sessionId) {
      const devtools = browsers.get(sessionId)?.devtools;
      return (devtools && activeTabs.get(devtools)) ?? null;
    },
    async stopForProfile(accountId, profileId, reason) {
      const row = await findSessionOfProfile(db, accountId, profileId);
      if (row) await stopper.stop(row, reason);
    },
    async stopAll(reason) {
      const live = (await findLiveSessionsOfNode(db, cluster.nodeId)).filter(
        (row) => browsers.has(row.id) || launching.has(row.id),
      );
      await Promise.all(live.map((row) => stopper.stop(row, reason)));
    },
  };
}
