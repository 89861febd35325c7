import type { Profile } from '../../lib/api/schemas/profiles';
import type { Queryable } from '../db/driver';
import { queryAsJson } from './json-rows';
import { HELD_BY_COLUMNS, type HeldByColumns } from './leases';
import { nextCursor, sortKeyColumn } from './profile-order';
import {
  heldByOf,
  listConditions,
  listProfiles,
  PROFILES_FROM,
  type ProfileListOptions,
  type ProfileRow,
  SELECT_PROFILES,
  toProfile,
} from './profiles';
import type { Reader } from './scope';

/** A profile's JSON text around its live status, kept while the rows it was read from are unchanged. */
interface KeptProfile {
  version: string;
  /** `{"id":…,"identity":…` (up to the status). */
  head: string;
  /** `"created_at":…}` (after the session id). */
  tail: string;
}

interface ListedRow extends HeldByColumns {
  seq: number;
  id: string;
  version: string;
  live_session_id: string | null;
  sort_key?: string | number;
}

/** Profiles kept per database: enough for the first pages of many accounts, about 2 kB each. */
const MAX_KEPT = 5000;
const kept = new WeakMap<Queryable, Map<string, KeptProfile>>();

/**
 * The version of a listed row: PostgreSQL gives every new version of a row (each insert and update) the id of
 * the transaction that wrote it (`xmin`), so the pair of the profile's and its saved proxy's names the text they
 * make. A row written twice in one transaction keeps one xmin, but only its last version is ever committed.
 */
const VERSION = `p.xmin::text || ':' || coalesce(x.xmin::text, '')`;

/** A page of profiles with its `data` already JSON text. */
export interface ProfilePageJson {
  data: string;
  next_cursor: string | null;
}

/**
 * A page of the account's profiles, `data` the same bytes as `JSON.stringify(listProfiles(…).data)`. The page's
 * rows are read with only their versions and live sessions; a profile whose rows have not changed since an
 * earlier read is not read, parsed and serialized again. The others are read by id and used only if still of the
 * version the page saw, which keeps the page one snapshot of the database; should one have changed meanwhile,
 * the page is read whole again.
 */
export async function listProfilesJson(
  db: Queryable,
  reader: Reader,
  options: ProfileListOptions,
): Promise<ProfilePageJson> {
  const cache = keptOf(db);
  const params: unknown[] = [reader.id];
  const { sql, outputOrder } = listConditions(reader, options, params);
  const rows = await queryAsJson<ListedRow>(
    db,
    `select p.seq, p.id, ${VERSION} as version, s.id as live_session_id, ${HELD_BY_COLUMNS}${sortKeyColumn(options.sort)}
       ${PROFILES_FROM} ${sql}`,
    params,
    outputOrder,
  );
  const shown = rows.slice(0, options.limit);
  const missing = shown.filter((row) => cache.get(row.id)?.version !== row.version);
  if (missing.length > 0 && !(await keepProfiles(db, cache, reader.id, missing))) {
    const page = await listProfiles(db, reader, options);
    return { data: JSON.stringify(page.data), next_cursor: page.next_cursor };
  }
  const data = shown.map((row) => profileJson(cache.get(row.id) as KeptProfile, row.live_session_id, row));
  return { data: `[${data.join(',')}]`, next_cursor: nextCursor(options.sort, rows, options.limit) };
}

/** The list's answer as `JSON.stringify` writes `{ data, next_cursor, total }` (`total` when counted). */
export function profilePageText({ data, next_cursor }: ProfilePageJson, total?: number): string {
  const counted = total === undefined ? '' : `,"total":${JSON.stringify(total)}`;
  return `{"data":${data},"next_cursor":${JSON.stringify(next_cursor)}${counted}}`;
}

/** Reads and keeps the missing profiles; false when one of them is no longer of the version listed. */
async function keepProfiles(
  db: Queryable,
  cache: Map<string, KeptProfile>,
  accountId: string,
  missing: ListedRow[],
): Promise<boolean> {
  const rows = await queryAsJson<ProfileRow & { version: string }>(
    db,
    `select r.*, ${VERSION} as version from (${SELECT_PROFILES} where p.account_id = $1 and p.id = any($2::text[])) r
       join profiles p on p.id = r.id
       left join proxies x on x.id = p.proxy_id`,
    [accountId, missing.map((row) => row.id)],
    'seq desc',
  );
  const read = new Map(rows.map((row) => [row.id, row]));
  if (missing.some((listed) => read.get(listed.id)?.version !== listed.version)) return false;
  for (const row of rows) {
    cache.delete(row.id);
    if (cache.size >= MAX_KEPT) cache.delete(cache.keys().next().value as string);
    cache.set(row.id, { version: row.version, ...splitProfile(toProfile(row)) });
  }
  return true;
}

/** A profile's JSON text without its live status: what comes before `status` and after `session_id`. */
export function splitProfile(profile: Profile): { head: string; tail: string } {
  const {
    status: _status,
    session_id: _session,
    held_by: _held,
    created_at,
    updated_at,
    last_used_at,
    ...head
  } = profile;
  return {
    head: JSON.stringify(head).slice(0, -1),
    tail: JSON.stringify({ created_at, updated_at, last_used_at }).slice(1),
  };
}

/** The profile's JSON text with its live session and holder, as `JSON.stringify` writes the whole profile. */
export function profileJson(
  { head, tail }: Pick<KeptProfile, 'head' | 'tail'>,
  liveSessionId: string | null,
  lease: HeldByColumns,
) {
  const status = liveSessionId ? 'running' : 'idle';
  const heldBy = JSON.stringify(heldByOf(lease));
  return `${head},"status":"${status}","session_id":${JSON.stringify(liveSessionId)},"held_by":${heldBy},${tail}`;
}

function keptOf(db: Queryable): Map<string, KeptProfile> {
  let cache = kept.get(db);
  if (!cache) {
    cache = new Map();
    kept.set(db, cache);
  }
  return cache;
}
