import type { Fingerprint } from '../../lib/api/inputs/profiles';
import type { Identity } from '../../lib/api/schemas/identity';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { ProxySettings } from '../browser/settings';
import type { EgressPolicy } from '../core/egress-policy';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import { fillMissingIdentity } from '../store/profile-identity';
import { checkExit } from './exit-place';
import { generateIdentity } from './generate';
import { type PresentedIdentity, presentIdentity } from './presented';

export interface IdentityForLaunchDeps {
  db: Database;
  log: Logger;
  /** What the proxy's exit IP is learned from (PROXY_CHECK_URL); null: `auto` stays the host's. */
  proxyCheckUrl: string | null;
  egress: EgressPolicy;
}

export interface LaunchSettings {
  profile: Profile;
  proxy: ProxySettings | null;
  fingerprint: Fingerprint;
}

/** The exit IP is asked for within this, or the start goes on with the host's location. */
const EXIT_CHECK_TIMEOUT_MS = 10_000;

/**
 * The identity a start presents: the profile's (one generated and stored now if it has none), with `auto`
 * location resolved from the proxy's exit IP, learned through the proxy as the browser's traffic will go.
 */
export async function identityForLaunch(
  deps: IdentityForLaunchDeps,
  accountId: string,
  settings: LaunchSettings,
): Promise<PresentedIdentity> {
  const { profile, proxy } = settings;
  const identity =
    profile.identity ?? (await fillMissingIdentity(deps.db, accountId, profile.id, generateIdentity()));
  if (!identity) throw new Error(`profile ${profile.id} vanished while it started`);
  const exit = proxy && followsLocation(identity) ? await exitPlace(deps, proxy, profile.id) : null;
  return presentIdentity(identity, settings.fingerprint, exit);
}

function followsLocation({ location }: Identity): boolean {
  return Object.values(location).includes('auto');
}

async function exitPlace(deps: IdentityForLaunchDeps, proxy: ProxySettings, profileId: string) {
  if (!deps.proxyCheckUrl) return null;
  const check = await checkExit({
    proxy,
    checkUrl: deps.proxyCheckUrl,
    policy: deps.egress,
    timeoutMs: EXIT_CHECK_TIMEOUT_MS,
  });
  if (!check.ok)
    deps.log.warn('the proxy exit is unknown: location stays the host’s', {
      profile_id: profileId,
      reason: check.reason,
    });
  else if (!check.place)
    deps.log.warn('the proxy exit IP is not in the GeoIP database', { profile_id: profileId });
  return check.place;
}
