import { DOWNLOAD_CAPS, sessionCap } from '../accounts/plans';
import { refuseForbiddenProxy } from '../browser/proxy-relay';
import { withoutPaths } from '../browser/startup-failure';
import { profileDataDir } from '../core/data-dir';
import { Conflict, NotFound, Unavailable } from '../core/domain-errors';
import { sessionStartSeconds } from '../core/metrics';
import { identityForLaunch } from '../identity/for-launch';
import { launchFingerprint } from '../identity/presented';
import { findPlan } from '../store/accounts';
import type { Holder } from '../store/leases';
import { getProfileLaunchSettings } from '../store/profiles';
import { everything } from '../store/scope';
import {
  endSessionOfExpiredLease,
  findSession,
  findSessionOfProfile,
  insertStartingSession,
  LIVE_SESSION_STATUSES,
  markFailed,
  markRunning,
  type SessionRow,
  toSession,
} from '../store/sessions';
import { atCapacity, type Slots, sessionLimit, shuttingDown } from './capacity';
import { chromeToLaunch } from './chrome-path';
import type { IdleWatch } from './idle-watch';
import { launchBrowser, type RunningBrowser } from './launch-browser';
import { BrowserLaunchError, type LaunchOptions } from './launch-options';
import { profileHeld } from './lease-errors';
import { changeSession, type SessionParts } from './parts';
import type { SessionStopper } from './stop-session';

export interface SessionStarter {
  /**
   * Starts a browser here when this node has room, else on a node that has, the profile's lease taken for
   * `holder`; answers the running row. Refused with `profile_held` while another member holds the profile.
   */
  start(accountId: string, profileId: string, holder: Holder, headless?: boolean): Promise<SessionRow>;
  /** Starts it on this node, or refuses with `at_capacity`. */
  startHere(accountId: string, profileId: string, holder: Holder, headless?: boolean): Promise<SessionRow>;
  /** Starts it on this node for its cookies only (LaunchOptions.cookiesOnly), headless, as startHere would. */
  startForCookies(accountId: string, profileId: string, holder: Holder): Promise<SessionRow>;
}

export interface StarterDeps {
  launch?: (options: LaunchOptions) => Promise<RunningBrowser>;
  slots: Slots;
  idle: IdleWatch;
  stopper: Pick<SessionStopper, 'exited'>;
  /** Told of each tab of a session started here that closes, by its DevTools target id. */
  onTabClosed?(sessionId: string, tabId: string): void;
}

/** Launching: the profile's saved state restored, its browser started within the caps, its session recorded. */
export function createSessionStarter(parts: SessionParts, deps: StarterDeps): SessionStarter {
  const { db, clock, config, log, events, cluster, profileState, browsers, launching } = parts;
  const { slots, idle, stopper } = deps;
  const launch = deps.launch ?? launchBrowser;

  async function start(
    accountId: string,
    profileId: string,
    holder: Holder,
    headless = config.headless,
  ): Promise<SessionRow> {
    if (slots.hasRoom()) return startHere(accountId, profileId, holder, headless);
    // A profile that runs already is told so, room or not (a start with `wait` would otherwise join the line).
    const known = await findSessionOfProfile(db, accountId, profileId);
    if (known && (LIVE_SESSION_STATUSES as readonly string[]).includes(known.status))
      throw sessionExists(known);
    const elsewhere = await cluster.peers.startElsewhere(accountId, profileId, holder, headless);
    if (elsewhere === null) throw cluster.draining() ? shuttingDown() : atCapacity(config.limits.maxBrowsers);
    const row = await findSession(db, everything(accountId), elsewhere);
    if (!row) throw new Error(`session ${elsewhere} started elsewhere vanished`);
    return row;
  }

  async function startHere(
    accountId: string,
    profileId: string,
    holder: Holder,
    headless = config.headless,
    cookiesOnly = false,
  ): Promise<SessionRow> {
    const [settings, plan] = await Promise.all([
      getProfileLaunchSettings(db, accountId, profileId),
      findPlan(db, accountId),
    ]);
    if (!settings || !plan) throw new NotFound('profile');
    if (settings.proxy) await refuseForbiddenProxy(config.egress, settings.proxy);
    const chromePath = chromeToLaunch(config.chromePath, log);
    const timeStart = sessionStartSeconds.startTimer();
    const releaseSlot = slots.take();
    let row: SessionRow;
    try {
      const cap = sessionCap(plan, config.limits.enterpriseMaxSessions);
      const inserted = await events.writeWithEvents(async (tx, emit) => {
        const lost = await endSessionOfExpiredLease(tx, clock, profileId);
        if (lost) await emit(accountId, 'session.stopped', toSession(lost));
        const outcome = await insertStartingSession(tx, clock, {
          accountId,
          profileId,
          headless,
          cap,
          nodeId: cluster.nodeId,
          holder,
          leaseTtlMs: config.limits.leaseTtlMs,
          cookiesOnly,
        });
        if ('row' in outcome) await emit(accountId, 'session.starting', toSession(outcome.row));
        return outcome;
      });
      if ('refused' in inserted) {
        if (inserted.refused === 'account_at_cap') throw sessionLimit(plan, cap);
        if (inserted.refused === 'profile_held') throw profileHeld(settings.profile.name, inserted.heldBy);
        throw sessionExists(await findSessionOfProfile(db, accountId, profileId));
      }
      row = inserted.row;
    } catch (error) {
      releaseSlot();
      throw error;
    }

    const userDataDir = profileDataDir(config.dataDir, profileId);
    const launched = Promise.all([
      profileState.restore(profileId, userDataDir),
      identityForLaunch({ db, log, ...config }, accountId, settings),
    ]).then(([, identity]) =>
      launch({
        chromePath,
        userDataDir,
        headless,
        proxy: settings.proxy,
        fingerprint: launchFingerprint(identity),
        identity,
        egress: config.egress,
        onEgressRefused: (detail) => log.info('egress refused', { session_id: row.id, detail }),
        onTabClosed: (tabId) => deps.onTabClosed?.(row.id, tabId),
        downloads: { sessionId: row.id, maxBytes: DOWNLOAD_CAPS[plan] },
        cookiesOnly,
      }),
    );
    launching.set(row.id, launched);
    try {
      const browser = await launched;
      browsers.set(row.id, browser);
      void browser.exited.then(() => {
        releaseSlot();
        idle.forget(row.id);
        return stopper.exited(row, browser);
      });
      idle.watch(row, browser.devtools, () => browsers.has(row.id));
      log.info('session started', { session_id: row.id, profile_id: profileId, pid: browser.pid });
      timeStart();
      return await changeSession(events, (tx) => markRunning(tx, clock, row.id, browser));
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
      await changeSession(events, (tx) => markFailed(tx, clock, row.id, detail));
      throw new Unavailable('browser_unavailable', detail, { sessionId: row.id });
    } finally {
      launching.delete(row.id);
    }
  }

  return {
    start,
    startHere: (accountId, profileId, holder, headless) => startHere(accountId, profileId, holder, headless),
    startForCookies: (accountId, profileId, holder) => startHere(accountId, profileId, holder, true, true),
  };
}

function sessionExists(live: SessionRow | null): Conflict {
  return new Conflict(
    'session_exists',
    'This profile already has a running session; stop it first or use it.',
    live?.id ?? null,
  );
}
