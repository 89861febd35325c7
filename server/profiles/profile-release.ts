import type { Profile } from '../../lib/api/schemas/profiles';
import { Conflict, NotFound } from '../core/domain-errors';
import type { Database } from '../db/driver';
import type { SessionManager } from '../sessions/manager';
import { findHolder, freeLease, profilesHeldBy } from '../store/leases';
import { getProfile } from '../store/profiles';
import { everything, type Reader } from '../store/scope';
import { findSession } from '../store/sessions';
import { profileOf } from './profile-of';

/**
 * Frees a profile someone holds (an owner's or admin's act): its session stops, saving its browser data, and the
 * lease ends, so the next member may start it. A free profile is refused with a sentence.
 */
export async function releaseProfile(
  deps: { db: Database; sessions: Pick<SessionManager, 'stop'> },
  reader: Reader,
  profileId: string,
): Promise<Profile> {
  const { db, sessions } = deps;
  const profile = await profileOf(db, reader, profileId);
  const holder = await findHolder(db, profileId);
  if (!holder)
    throw new Conflict('profile_not_held', `Nobody holds ${profile.name}; there is nothing to release.`);
  const session = holder.session_id ? await findSession(db, reader, holder.session_id) : null;
  if (session) await sessions.stop(session, 'released');
  await freeLease(db, profileId, holder);
  return (await getProfile(db, reader, profileId)) ?? profile;
}

/** Frees what a member removed from the workspace held: each session stops, saving its browser data. */
export async function releaseProfilesOfMember(
  deps: { db: Database; sessions: Pick<SessionManager, 'stop'> },
  accountId: string,
  memberId: string,
): Promise<void> {
  for (const profileId of await profilesHeldBy(deps.db, accountId, memberId)) {
    try {
      await releaseProfile(deps, everything(accountId), profileId);
    } catch (error) {
      // Stopped or deleted meanwhile: nothing of it is held any more.
      if (!(error instanceof Conflict || error instanceof NotFound)) throw error;
    }
  }
}
