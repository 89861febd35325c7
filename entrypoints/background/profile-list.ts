import type { ApiClient } from '../../lib/api/client';
import { cachedProfiles, type ProfileFilter } from '../../lib/storage';
import { requireApi } from './connection';
import { change, readWhole } from './in-turn';

/** Profiles read at a time: the list pages as the person scrolls. */
const PAGE = 50;

/**
 * The number of the latest list asked for. A search typed on while an older one is on its way must not be
 * overwritten by the older answer; lost with the worker, when no answer is on its way either.
 */
let latest = 0;

type ProfileQuery = NonNullable<Parameters<ApiClient['listProfiles']>[0]>;

function queryOf({ q, tag, status, sort }: ProfileFilter, limit = PAGE): ProfileQuery {
  return {
    limit,
    ...(q?.trim() ? { q: q.trim() } : {}),
    ...(tag ? { tag } : {}),
    ...(status ? { status } : {}),
    ...(sort && sort !== 'created' ? { sort } : {}),
  };
}

/** Reads the first page of the profiles `filter` matches (the cached filter if none), with their total. */
export async function refreshProfiles(filter?: ProfileFilter): Promise<void> {
  const asked = ++latest;
  const wanted = filter ?? (await cachedProfiles.getValue())?.filter ?? {};
  await readWhole(
    cachedProfiles,
    async () => (await requireApi()).listProfiles({ ...queryOf(wanted), total: 'true' }),
    async (page) => {
      if (asked !== latest) return;
      await cachedProfiles.setValue({
        data: page.data,
        filter: wanted,
        next_cursor: page.next_cursor,
        total: page.total ?? null,
        savedAt: Date.now(),
      });
    },
  );
}

/** A page of the profiles a filter matches, for a picker or the manager: answered, not cached. */
export async function searchProfiles({
  cursor,
  limit,
  total,
  ...filter
}: ProfileFilter & { cursor?: string | undefined; limit?: number | undefined; total?: boolean | undefined }) {
  const {
    data,
    next_cursor,
    total: count,
  } = await (await requireApi()).listProfiles({
    ...queryOf(filter, limit),
    ...(cursor ? { cursor } : {}),
    ...(total ? { total: 'true' } : {}),
  });
  return { data, next_cursor, total: count };
}

/** Adds the next page of the cached list to it, unless the list changed meanwhile. */
export async function moreProfiles(): Promise<void> {
  const asked = latest;
  const listed = await cachedProfiles.getValue();
  const cursor = listed?.next_cursor;
  if (!cursor) return;
  const page = await (await requireApi()).listProfiles({ ...queryOf(listed.filter ?? {}), cursor });
  if (asked !== latest) return;
  await change(cachedProfiles, (now) => {
    if (!now || now.next_cursor !== cursor) return now;
    const known = new Set(now.data.map(({ id }) => id));
    return {
      ...now,
      data: [...now.data, ...page.data.filter(({ id }) => !known.has(id))],
      next_cursor: page.next_cursor,
    };
  });
}
