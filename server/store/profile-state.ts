import type { Clock } from '../core/clock';
import type { Database, Queryable } from '../db/driver';
import { firstRow } from './first-row';
import { isCurrentGeneration } from './leases';

/** How many saved states of a profile are kept: the newest, and the four before it to go back to. */
export const KEPT_VERSIONS = 5;

export interface StoredProfileState {
  version: number;
  /** The profile's files as `server/sessions/profile-archive.ts` packs them. */
  archive: Uint8Array;
}

export interface ProfileVersionRow {
  version: number;
  saved_at: Date;
  bytes: number;
  generation: number;
}

/** The profile's newest stored state when its version is above `heldVersion` (what a folder holds), else null. */
export async function findNewerProfileState(
  db: Queryable,
  profileId: string,
  heldVersion: number,
): Promise<StoredProfileState | null> {
  return firstRow(
    db.query<StoredProfileState>(
      `select version, archive from profile_states where profile_id = $1 and version > $2
        order by version desc limit 1`,
      [profileId, heldVersion],
    ),
  );
}

export type StoreOutcome = { version: number } | { refused: 'stale_holder' | 'newer_state' };

/**
 * Stores `archive` as the version after `basedOn` (the version the saved folder held, 0 for none), made under the
 * lease `generation`. Refused, storing nothing, when a later holder has taken the profile since (`stale_holder`)
 * or the newest stored version is not `basedOn` (`newer_state`: that folder missed a newer save). Keeps the
 * newest KEPT_VERSIONS.
 */
export async function storeProfileState(
  db: Database,
  clock: Clock,
  profile: { profileId: string; basedOn: number; archive: Uint8Array; generation: number },
): Promise<StoreOutcome> {
  return db.transaction(async (tx) => {
    if (!(await isCurrentGeneration(tx, profile.profileId, profile.generation)))
      return { refused: 'stale_holder' };
    const [row] = await tx.query<{ version: number }>(
      `insert into profile_states (profile_id, version, archive, saved_at, generation)
       select $1, $2::int + 1, $3, $4, $5
        where coalesce((select max(version) from profile_states where profile_id = $1), 0) = $2::int
       on conflict do nothing
       returning version`,
      [profile.profileId, profile.basedOn, profile.archive, clock.now(), profile.generation],
    );
    if (!row) return { refused: 'newer_state' };
    await keepNewest(tx, profile.profileId, row.version);
    return { version: row.version };
  });
}

/** The profile's kept states, newest first, without their archives. */
export async function listProfileVersions(db: Queryable, profileId: string): Promise<ProfileVersionRow[]> {
  return db.query<ProfileVersionRow>(
    `select version, saved_at, octet_length(archive)::int as bytes, generation from profile_states
      where profile_id = $1 order by version desc`,
    [profileId],
  );
}

/**
 * Stores the kept state `version` again as the profile's newest, so that its next start restores it; answers the
 * new version, or null when no such version is kept. Call it in a transaction that checked nobody holds the
 * profile.
 */
export async function copyVersionAsNewest(
  tx: Queryable,
  clock: Clock,
  profileId: string,
  version: number,
): Promise<ProfileVersionRow | null> {
  const [row] = await tx.query<ProfileVersionRow>(
    `insert into profile_states (profile_id, version, archive, saved_at, generation)
     select profile_id, (select max(version) from profile_states where profile_id = $1) + 1, archive, $3, generation
       from profile_states where profile_id = $1 and version = $2
     returning version, saved_at, octet_length(archive)::int as bytes, generation`,
    [profileId, version, clock.now()],
  );
  if (!row) return null;
  await keepNewest(tx, profileId, row.version);
  return row;
}

async function keepNewest(tx: Queryable, profileId: string, newest: number): Promise<void> {
  await tx.query('delete from profile_states where profile_id = $1 and version <= $2', [
    profileId,
    newest - KEPT_VERSIONS,
  ]);
}
