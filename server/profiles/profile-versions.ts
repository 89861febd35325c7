import type { ProfileVersion } from '../../lib/api/schemas/leases';
import type { Clock } from '../core/clock';
import { Conflict, NotFound } from '../core/domain-errors';
import type { Database, Queryable } from '../db/driver';
import { profileHeld } from '../sessions/lease-errors';
import { lockLease } from '../store/leases';
import { copyVersionAsNewest, listProfileVersions, type ProfileVersionRow } from '../store/profile-state';
import type { Reader } from '../store/scope';
import { findSessionOfProfile, LIVE_SESSION_STATUSES } from '../store/sessions';
import { profileOf } from './profile-of';

const toVersion = (row: ProfileVersionRow): ProfileVersion => ({
  version: row.version,
  saved_at: new Date(row.saved_at).toISOString(),
  bytes: row.bytes,
});

/** The profile's kept saved states, newest first. */
export async function listVersions(
  db: Queryable,
  reader: Reader,
  profileId: string,
): Promise<ProfileVersion[]> {
  await profileOf(db, reader, profileId);
  return (await listProfileVersions(db, profileId)).map(toVersion);
}

/**
 * Makes the kept state `version` the profile's newest, so that its next start restores it: only while nobody
 * holds the profile, which would save over it.
 */
export async function restoreVersion(
  deps: { db: Database; clock: Clock },
  reader: Reader,
  profileId: string,
  version: number,
): Promise<ProfileVersion> {
  const { db, clock } = deps;
  return db.transaction(async (tx) => {
    const profile = await profileOf(tx, reader, profileId);
    const { heldBy } = await lockLease(tx, profileId);
    if (heldBy) throw profileHeld(profile.name, heldBy);
    const live = await findSessionOfProfile(tx, reader.id, profileId);
    if (live && (LIVE_SESSION_STATUSES as readonly string[]).includes(live.status))
      throw new Conflict(
        'profile_running',
        `${profile.name} is running; stop it before restoring a saved state.`,
      );
    const restored = await copyVersionAsNewest(tx, clock, profileId, version);
    if (!restored) throw new NotFound('kept saved state');
    return toVersion(restored);
  });
}
