import type { Job } from '../core/lifecycle';
import { renewLeasesOfNode, sessionsThatLostTheirLease } from '../store/leases';
import { everything } from '../store/scope';
import { findSession } from '../store/sessions';
import type { SessionParts } from './parts';
import type { SessionStopper } from './stop-session';

/** A lease is renewed this many times within its time, so that one slow renewal does not lose it. */
const RENEWALS_PER_TTL = 3;

/**
 * While its sessions run, this node renews their profiles' leases. A session whose lease another holder took
 * meanwhile (this node stalled past the lease's time) is stopped without saving: its state is no longer the
 * profile's, and the fencing would refuse it anyway.
 */
export function leaseRenewal(
  parts: Pick<SessionParts, 'db' | 'config' | 'log' | 'cluster'>,
  stopper: Pick<SessionStopper, 'stop'>,
): Job {
  const { db, config, log, cluster } = parts;
  const ttlMs = config.limits.leaseTtlMs;
  let renewing: Promise<void> = Promise.resolve();

  async function renew(): Promise<void> {
    await renewLeasesOfNode(db, cluster.nodeId, ttlMs);
    for (const lost of await sessionsThatLostTheirLease(db, cluster.nodeId)) {
      const row = await findSession(db, everything(lost.account_id), lost.id);
      if (!row) continue;
      log.warn('a session lost its profile to another holder and stops unsaved', {
        session_id: row.id,
        profile_id: row.profile_id,
      });
      await stopper.stop(row, 'lease_lost', { saveProfile: false });
    }
  }

  return {
    name: 'profile leases',
    every: {
      ms: Math.max(100, Math.floor(ttlMs / RENEWALS_PER_TTL)),
      run: () => {
        renewing = renew().catch((error: unknown) =>
          log.error('could not renew the profile leases', { error }),
        );
      },
    },
    stop: () => renewing,
  };
}
