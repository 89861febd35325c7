import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import {
  type Cached,
  cachedProfiles,
  cachedProxies,
  cachedSessions,
  type ProfileListing,
} from '../../lib/storage';
import { change, inTurn, type Stored } from './in-turn';

type CachedList<T> = Stored<Cached<T> | null>;

/** Reads a whole list from the service into its cache. */
export async function refreshList<T>(item: CachedList<T>, list: Promise<{ data: T[] }>): Promise<void> {
  const { data } = await list;
  await inTurn(() => item.setValue({ data, savedAt: Date.now() }));
}

/**
 * Puts a created or changed entry first in its cached list, which keeps its `savedAt` (and, for the profiles,
 * its filter and cursor, and a total one greater when the entry is new).
 */
export async function putFirst<T extends { id: string }>(item: CachedList<T>, entry: Promise<T>): Promise<T> {
  const saved = await entry;
  await change(item, (cached) => {
    const others = cached?.data.filter(({ id }) => id !== saved.id) ?? [];
    const total = (cached as { total?: number | null } | null)?.total;
    return {
      ...cached,
      data: [saved, ...others],
      savedAt: cached?.savedAt ?? 0,
      ...(typeof total === 'number'
        ? { total: total + (others.length === cached?.data.length ? 1 : 0) }
        : {}),
    };
  });
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
  const fewer = (cached: ProfileListing | null): ProfileListing | null => {
    const kept = others(cached);
    const gone = (cached?.data.length ?? 0) - (kept?.data.length ?? 0);
    const total = cached?.total;
    return kept && typeof total === 'number' ? { ...kept, total: Math.max(0, total - gone) } : kept;
  };
  await Promise.all([change(cachedProfiles, fewer), change(cachedSessions, others)]);
}

/**
 * Keeps a proxy the service made or changed (by anyone: an agent, a pasted list for a selection) in the cached
 * list, first when it is new, so that the profiles' rows name it; a list never read is left to be read whole.
 */
export function keepProxy(proxy: ProxyConfig): Promise<void> {
  return change(
    cachedProxies,
    (cached) =>
      cached && {
        ...cached,
        data: cached.data.some(({ id }) => id === proxy.id)
          ? replaced(cached.data, proxy)
          : [proxy, ...cached.data],
      },
  );
}

/** Takes a deleted proxy out of the cached list. */
export function forgetProxy(proxyId: string): Promise<void> {
  return change(
    cachedProxies,
    (cached) => cached && { ...cached, data: cached.data.filter(({ id }) => id !== proxyId) },
  );
}
