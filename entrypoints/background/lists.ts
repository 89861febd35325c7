import { type Cached, cachedProfiles, cachedSessions } from '../../lib/storage';
import { change, inTurn, type Stored } from './in-turn';

type CachedList<T> = Stored<Cached<T> | null>;

/** Reads a whole list from the service into its cache. */
export async function refreshList<T>(item: CachedList<T>, list: Promise<{ data: T[] }>): Promise<void> {
  const { data } = await list;
  await inTurn(() => item.setValue({ data, savedAt: Date.now() }));
}

/** Puts a created or changed entry first in its cached list, which keeps its `savedAt`. */
export async function putFirst<T extends { id: string }>(item: CachedList<T>, entry: Promise<T>): Promise<T> {
  const saved = await entry;
  await change(item, (cached) => ({
    data: [saved, ...(cached?.data.filter(({ id }) => id !== saved.id) ?? [])],
    savedAt: cached?.savedAt ?? 0,
  }));
  return saved;
}

/** The list with `entry` in place of the one with its id. */
export function replaced<T extends { id: string }>(list: T[], entry: T): T[] {
  return list.map((known) => (known.id === entry.id ? entry : known));
}

/** Takes a deleted profile, and its sessions, out of the caches. */
export async function forgetProfile(profileId: string): Promise<void> {
  const others = <T extends { id: string; profile_id?: string }>(cached: Cached<T> | null) =>
    cached && {
      ...cached,
      data: cached.data.filter((e) => e.id !== profileId && e.profile_id !== profileId),
    };
  await Promise.all([change(cachedProfiles, others), change(cachedSessions, others)]);
}
