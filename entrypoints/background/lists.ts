import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import {
  type Cached,
  cachedProfiles,
  cachedProxies,
  cachedSessions,
  type ProfileListing,
  waitingStarts,
} from '../../lib/storage';
import { change, readWhole, type Stored } from './in-turn';
import { withoutStarts } from './waiting-starts';

type CachedList<T> = Stored<Cached<T> | null>;

/** Reads a whole list from the service into its cache. */
export function refreshList<T>(item: CachedList<T>, read: () => Promise<{ data: T[] }>): Promise<void> {
  return readWhole(item, read, ({ data }) => item.setValue({ data, savedAt: Date.now() }));
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
  await Promise.all([
    change(cachedProfiles, fewer),
    change(cachedSessions, others),
    change(waitingStarts, (waiting) => withoutStarts(waiting, [profileId])),
  ]);
}

/** How many entries a list is read with, a page: what the cached lists hold. */
export const LIST_PAGE = 100;

/** What the event stream said of a proxy: made, changed, or deleted (null). */
export type ProxyNews = { proxy: ProxyConfig; made: boolean } | null;

/** What the event stream said of proxies and the cached list does not hold yet, by id. */
const proxyNews = new Map<string, ProxyNews>();
/** A write of the news is queued: news that comes meanwhile goes with it. */
let proxyWriteQueued = false;

/**
 * Follows the service's word on a saved proxy, whoever made, changed or deleted it (an agent, the API, a list
 * pasted for a selection), so that the profiles' rows name it: a new one first, a changed one in place, a deleted
 * one gone; the list stays a page long, and one never read is left to be read whole. A burst of news (a thousand
 * proxies pasted at once) is written in a few writes, not one each: the stream does not wait for the write.
 */
export function followProxy(id: string, news: ProxyNews): void {
  // Made, then changed before the write: still new to the list.
  proxyNews.set(id, news && proxyNews.get(id)?.made ? { ...news, made: true } : news);
  if (proxyWriteQueued) return;
  proxyWriteQueued = true;
  change(cachedProxies, (cached) => {
    const all = new Map(proxyNews);
    proxyNews.clear();
    proxyWriteQueued = false;
    return cached && { ...cached, data: withNews(cached.data, all) };
  }).catch((error) => {
    proxyWriteQueued = false;
    console.warn('Profile Pilot worker: the proxies could not be kept', error);
  });
}

function withNews(list: ProxyConfig[], news: Map<string, ProxyNews>): ProxyConfig[] {
  const known = new Set(list.map(({ id }) => id));
  // Made in the order the news came, oldest first: the newest goes on top. A change to one past the page stays there.
  const made = [...news.values()].flatMap((told) =>
    told?.made && !known.has(told.proxy.id) ? [told.proxy] : [],
  );
  const kept = list.flatMap((proxy) => {
    const told = news.get(proxy.id);
    return told === null ? [] : [told?.proxy ?? proxy];
  });
  return [...made.reverse(), ...kept].slice(0, Math.max(list.length, LIST_PAGE));
}

/** Takes a deleted proxy out of the cached list. */
export function forgetProxy(proxyId: string): Promise<void> {
  return change(
    cachedProxies,
    (cached) => cached && { ...cached, data: cached.data.filter(({ id }) => id !== proxyId) },
  );
}
