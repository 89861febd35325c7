import type { ProfileSortName } from '../../lib/api/profile-sorts';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';
import { queryAsJson } from './json-rows';
import { filterConditions, type ProfileFilter } from './profile-filter';
import { orderOf } from './profile-order';
import { PROFILES_LIVE_FROM, type ProfileRow, SELECT_PROFILES, toProfile } from './profiles';
import { type Reader, scopeOfTags } from './scope';

/**
 * The ids of the account's profiles a filter of the list matches, in the list's order (`sort`, newest first unless
 * given), at most `limit + 1` of them: one more than may be acted on says the selection is too large.
 */
export async function selectProfileIds(
  db: Queryable,
  reader: Reader,
  filter: ProfileFilter & { sort?: ProfileSortName | undefined },
  limit: number,
): Promise<string[]> {
  if (!Number.isSafeInteger(limit)) throw new Error(`a selection's limit must be an integer: ${limit}`);
  const params: unknown[] = [reader.id];
  const where = ['p.account_id = $1', ...scopeOfTags(reader, params), ...filterConditions(filter, params)];
  const { orderBy } = orderOf(filter.sort, null, params);
  const rows = await db.query<{ id: string }>(
    `select p.id ${PROFILES_LIVE_FROM} where ${where.join(' and ')} order by ${orderBy} limit ${limit + 1}`,
    params,
  );
  return rows.map(({ id }) => id);
}

/** Which of `ids` are profiles of the account: a stranger's or a made-up id is not. */
export async function ownProfileIds(db: Queryable, reader: Reader, ids: string[]): Promise<Set<string>> {
  const params: unknown[] = [reader.id, ids];
  const where = ['account_id = $1 and id = any($2::text[])', ...scopeOfTags(reader, params, 'tags')];
  const rows = await db.query<{ id: string }>(`select id from profiles where ${where.join(' and ')}`, params);
  return new Set(rows.map(({ id }) => id));
}

/** The names of the account's profiles among `ids`, by id. */
export async function profileNames(
  db: Queryable,
  accountId: string,
  ids: string[],
): Promise<Map<string, string>> {
  const rows = await db.query<{ id: string; name: string }>(
    'select id, name from profiles where account_id = $1 and id = any($2::text[])',
    [accountId, ids],
  );
  return new Map(rows.map(({ id, name }) => [id, name]));
}

/** The tags of the account's profiles among `ids`, locked until the transaction ends. */
export async function lockProfileTags(
  tx: Queryable,
  accountId: string,
  ids: string[],
): Promise<Map<string, string[]>> {
  const rows = await tx.query<{ id: string; tags: string[] }>(
    'select id, tags from profiles where account_id = $1 and id = any($2::text[]) for update',
    [accountId, ids],
  );
  return new Map(rows.map(({ id, tags }) => [id, tags]));
}

/**
 * The saved proxy of each of the account's profiles among `ids` (null: none; undefined: a proxy of its own, or
 * none saved), locked until the transaction ends.
 */
export async function lockProfileProxies(
  tx: Queryable,
  accountId: string,
  ids: string[],
): Promise<Map<string, string | null | undefined>> {
  const rows = await tx.query<{ id: string; proxy_id: string | null; own: boolean }>(
    `select id, proxy_id, proxy_host is not null as own from profiles
      where account_id = $1 and id = any($2::text[]) for update`,
    [accountId, ids],
  );
  return new Map(rows.map(({ id, proxy_id, own }) => [id, own ? undefined : proxy_id]));
}

/** Gives each profile its tags, in one statement. */
export async function writeProfileTags(
  tx: Queryable,
  clock: Clock,
  accountId: string,
  tags: Map<string, string[]>,
): Promise<void> {
  if (tags.size === 0) return;
  await tx.query(
    `update profiles p set tags = v.tags::jsonb, updated_at = $4
       from unnest($2::text[], $3::text[]) as v(id, tags)
      where p.account_id = $1 and p.id = v.id`,
    [accountId, [...tags.keys()], [...tags.values()].map((list) => JSON.stringify(list)), clock.now()],
  );
}

/**
 * Points each profile at its saved proxy (null: none), in one statement; the profile's own proxy goes. The
 * proxies are locked for share, so that none is deleted before the profiles pointing at it are committed.
 */
export async function writeProfileProxies(
  tx: Queryable,
  clock: Clock,
  accountId: string,
  proxies: Map<string, string | null>,
): Promise<void> {
  if (proxies.size === 0) return;
  const proxyIds = [...new Set([...proxies.values()].filter((id): id is string => id !== null))];
  if (proxyIds.length > 0)
    await tx.query('select id from proxies where account_id = $1 and id = any($2::text[]) for share', [
      accountId,
      proxyIds,
    ]);
  await tx.query(
    `update profiles p set proxy_id = v.proxy_id, proxy_scheme = null, proxy_host = null, proxy_port = null,
            proxy_username = null, proxy_password = null, updated_at = $4
       from unnest($2::text[], $3::text[]) as v(id, proxy_id)
      where p.account_id = $1 and p.id = v.id`,
    [accountId, [...proxies.keys()], [...proxies.values()], clock.now()],
  );
}

/** The account's profiles among `ids` as the API shows them, in no particular order. */
export async function profilesByIds(db: Queryable, accountId: string, ids: string[]): Promise<Profile[]> {
  const rows = await queryAsJson<ProfileRow>(
    db,
    `${SELECT_PROFILES} where p.account_id = $1 and p.id = any($2::text[])`,
    [accountId, ids],
    'seq desc',
  );
  return rows.map(toProfile);
}
