import type { IdentityCheck } from '../../lib/api/schemas/identity-check';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { Config } from '../core/config';
import { Conflict, NotFound } from '../core/domain-errors';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import type { Holder } from '../store/leases';
import { getProfileLaunchSettings } from '../store/profiles';
import {
  findSessionOfProfile,
  LIVE_SESSION_STATUSES,
  type SessionRow,
  type StopReason,
} from '../store/sessions';
import { compareSurfaces, exitLocation } from './compare';
import { engineOf } from './engine';
import { identityForLaunch } from './for-launch';
import { withHostWarnings } from './host-warnings';
import { visitCheckPage } from './read-check-page';
import { siteView } from './site-view';

export interface IdentityCheckDeps {
  db: Database;
  log: Logger;
  config: Pick<Config, 'proxyCheckUrl' | 'egress'>;
  sessions: CheckSessions;
}

/** What the check asks of the sessions (the session manager has it): start one here, reach its browser, stop it. */
export interface CheckSessions {
  startHere(accountId: string, profileId: string, holder: Holder, headless: boolean): Promise<SessionRow>;
  devtoolsOf(sessionId: string): CdpMultiplexer | null;
  stop(row: SessionRow, reason: StopReason): Promise<unknown>;
}

/**
 * Opens the profile's browser (its running session, or a headless one started for the check and stopped after)
 * on the service's own check page and compares every surface it read with what the profile claims.
 */
export async function checkIdentity(
  deps: IdentityCheckDeps,
  accountId: string,
  profileId: string,
  holder: Holder,
): Promise<IdentityCheck> {
  const { db, sessions } = deps;
  const latest = await findSessionOfProfile(db, accountId, profileId);
  const live = latest && isLive(latest) ? latest : null;
  const session = live ?? (await sessions.startHere(accountId, profileId, holder, true));
  try {
    const devtools = sessions.devtoolsOf(session.id);
    if (!devtools)
      throw new Conflict(
        'session_not_running',
        'The profile’s session is not running on this machine yet (or runs on another one); check again once it runs, or stop it to let the check start its own.',
        session.id,
      );
    const settings = await getProfileLaunchSettings(db, accountId, profileId);
    if (!settings) throw new NotFound('profile');
    const [presented, visit] = await Promise.all([
      identityForLaunch({ db, log: deps.log, ...deps.config }, accountId, settings),
      visitCheckPage(devtools),
    ]);
    const engine = engineOf(/\/([\d.]+)$/.exec(visit.product)?.[1] ?? '0.0.0.0');
    const { surfaces, warnings } = withHostWarnings(
      compareSurfaces(presented, engine, visit),
      visit.readings.page,
    );
    return {
      profile_id: profileId,
      session_id: session.id,
      temporary_session: live === null,
      engine_version: engine.fullVersion,
      ok: surfaces.every((surface) => surface.verdict !== 'mismatch'),
      surfaces,
      warnings,
      exit: exitLocation(presented, visit.readings.page),
      site_view: siteView(presented, visit.readings.page),
    };
  } finally {
    if (live === null) await sessions.stop(session, 'identity_check');
  }
}

function isLive(row: SessionRow): boolean {
  return (LIVE_SESSION_STATUSES as readonly string[]).includes(row.status);
}
