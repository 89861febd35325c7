import type { Profile } from '../../lib/api/schemas/profiles';
import type { Queryable } from '../db/driver';
import type { Page } from '../store/pagination';
import { listProfileEntries, profilesWithRevisions } from '../store/profile-page';
import { listProfiles, liveParts, type ProfileListOptions } from '../store/profiles';
import type { Reader } from '../store/scope';

/** Profiles kept per database: enough for the first pages of many accounts. */
const MAX_KEPT = 5000;
const kept = new WeakMap<Queryable, Map<string, { revision: number; profile: Profile }>>();

/**
 * A page of the account's profiles, as listProfiles reads it whole. A profile's content is kept between pages at
 * its revision, so that a page reads the listed profiles' revisions and live parts (status, session, holder), and
 * the content only of those not kept at that revision. Should one of those change or go between the two reads,
 * the page is read whole, which keeps it one snapshot of the database.
 */
export async function listProfilePage(
  db: Queryable,
  reader: Reader,
  options: ProfileListOptions,
): Promise<Page<Profile>> {
  const cache = keptOf(db);
  const { entries, next_cursor } = await listProfileEntries(db, reader, options);
  const missing = entries.filter((entry) => cache.get(entry.id)?.revision !== entry.revision);
  if (missing.length > 0) {
    const read = await profilesWithRevisions(
      db,
      reader.id,
      missing.map((entry) => entry.id),
    );
    if (missing.some((entry) => read.get(entry.id)?.revision !== entry.revision))
      return listProfiles(db, reader, options);
    for (const [id, profile] of read) {
      cache.delete(id);
      if (cache.size >= MAX_KEPT) cache.delete(cache.keys().next().value as string);
      cache.set(id, profile);
    }
  }
  const data = entries.map((entry) => {
    const { profile } = cache.get(entry.id) as { profile: Profile };
    return { ...profile, ...liveParts(entry) };
  });
  return { data, next_cursor };
}

function keptOf(db: Queryable): Map<string, { revision: number; profile: Profile }> {
  let cache = kept.get(db);
  if (!cache) {
    cache = new Map();
    kept.set(db, cache);
  }
  return cache;
}
