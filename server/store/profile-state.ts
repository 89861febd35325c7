import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';

export interface StoredProfileState {
  version: number;
  /** The profile's files as `server/sessions/profile-archive.ts` packs them. */
  archive: Uint8Array;
}

/** The profile's stored state when its version is above `heldVersion` (what a folder holds), else null. */
export async function findNewerProfileState(
  db: Queryable,
  profileId: string,
  heldVersion: number,
): Promise<StoredProfileState | null> {
  const [row] = await db.query<StoredProfileState>(
    'select version, archive from profile_states where profile_id = $1 and version > $2',
    [profileId, heldVersion],
  );
  return row ?? null;
}

/**
 * Stores `archive` as the version after `basedOn` (the version the saved folder held, 0 for none) and answers
 * it; answers null, storing nothing, when the stored version is not `basedOn`: that folder missed a newer save.
 */
export async function storeProfileState(
  db: Queryable,
  clock: Clock,
  profile: { profileId: string; basedOn: number; archive: Uint8Array },
): Promise<number | null> {
  const rows = await db.query<{ version: number }>(
    `insert into profile_states (profile_id, version, archive, saved_at) values ($1, $2::int + 1, $3, $4)
     on conflict (profile_id) do update
       set version = excluded.version, archive = excluded.archive, saved_at = excluded.saved_at
       where profile_states.version = $2::int
     returning version`,
    [profile.profileId, profile.basedOn, profile.archive, clock.now()],
  );
  return rows[0]?.version ?? null;
}
