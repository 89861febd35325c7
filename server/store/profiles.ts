import type { Fingerprint, ProfileCreate } from '../../lib/api/inputs/profiles';
import type { ProfileSortName } from '../../lib/api/profile-sorts';
import { formatProxyUrl, type ProxyParts, parseProxyUrl } from '../../lib/api/proxy-url';
import type { Identity } from '../../lib/api/schemas/identity';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { z } from '../../lib/api/zod';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { queryAsJson } from './json-rows';
import { HELD_BY_COLUMNS, type HeldByColumns, heldByAnswer, JOIN_LEASE, toHeldBy } from './leases';
import type { Page } from './pagination';
import { filterConditions, type ProfileFilter } from './profile-filter';
import { nextCursor, orderOf, type SortedPosition, sortKeyColumn } from './profile-order';
import { everything, type Reader, scopeOfTags } from './scope';
import { searchPieceOf } from './search-trigrams';
import { sessionIsLive } from './sessions';

export interface ProfileRow extends HeldByColumns {
  seq: number;
  id: string;
  name: string;
  proxy_id: string | null;
  proxy_scheme: ProxyParts['scheme'] | null;
  proxy_host: string | null;
  proxy_port: number | null;
  proxy_username: string | null;
  /** Its saved proxy's last check: null when it has none or none was made. */
  proxy_works?: boolean | null;
  tags: string[];
  notes: string;
  fingerprint: Fingerprint;
  identity: Identity | null;
  /** A Date, or its JSON text when the row was read as JSON. */
  created_at: Date | string;
  updated_at: Date | string;
  last_used_at: Date | string | null;
  live_session_id: string | null;
}

/** A validated ProfileCreate body (proxy_id already checked to be the account's). */
export type ProfileFields = z.output<typeof ProfileCreate>;

/** The live session `s` (a partial unique index allows one) and the lease `l` of a profile `p`. */
export const JOIN_LIVE_PARTS = `
    left join sessions s on s.profile_id = p.id and ${sessionIsLive('s.status')}
    ${JOIN_LEASE}`;

/**
 * A profile `p` with its live parts: what a list filters, orders and pages on, without the proxy's join, which
 * made a search's plan a third slower.
 */
export const PROFILES_LIVE_FROM = `from profiles p ${JOIN_LIVE_PARTS}`;

/** The same with its effective proxy `x` (its own or its saved one), whose password no answer shows. */
export const PROFILES_FROM = `${PROFILES_LIVE_FROM}
    left join proxies x on x.id = p.proxy_id`;

const PROFILE_COLUMNS = `
  p.seq, p.id, p.name, p.proxy_id, p.tags, p.notes, p.fingerprint, p.identity, p.created_at, p.updated_at,
  p.last_used_at,
  coalesce(x.scheme, p.proxy_scheme) as proxy_scheme, coalesce(x.host, p.proxy_host) as proxy_host,
  coalesce(x.port, p.proxy_port) as proxy_port,
  case when x.id is null then p.proxy_username else x.username end as proxy_username,
  (x.last_check ->> 'ok')::boolean as proxy_works,
  s.id as live_session_id, ${HELD_BY_COLUMNS}`;

export const SELECT_PROFILES = `select ${PROFILE_COLUMNS} ${PROFILES_FROM}`;

/** A profile's `held_by` from its lease's columns. */
export function heldByOf(row: HeldByColumns): Profile['held_by'] {
  const held = toHeldBy(row);
  return held && heldByAnswer(held);
}

/** What of a profile its live session and lease say: its status, session and holder. */
export function liveParts(
  row: HeldByColumns & { live_session_id: string | null },
): Pick<Profile, 'status' | 'session_id' | 'held_by'> {
  return {
    status: row.live_session_id ? 'running' : 'idle',
    session_id: row.live_session_id,
    held_by: heldByOf(row),
  };
}

export function toProfile(row: ProfileRow): Profile {
  const proxy = proxyPartsOf(row);
  return {
    id: row.id,
    name: row.name,
    proxy: proxy ? formatProxyUrl(proxy) : null,
    proxy_id: row.proxy_id,
    ...(typeof row.proxy_works === 'boolean' ? { proxy_works: row.proxy_works } : {}),
    tags: row.tags,
    notes: row.notes,
    fingerprint: row.fingerprint,
    identity: row.identity,
    ...liveParts(row),
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    last_used_at: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
  };
}

/**
 * Where a list's page is, in which order and what it is narrowed to. `after` is a seq in the `created` order (the
 * default), a position in the others.
 */
export type ProfileListOptions = {
  limit: number;
  after: number | SortedPosition | null;
  sort?: ProfileSortName | undefined;
} & ProfileFilter;

export async function listProfiles(
  db: Queryable,
  reader: Reader,
  options: ProfileListOptions,
): Promise<Page<Profile>> {
  const params: unknown[] = [reader.id];
  const { sql, outputOrder } = listConditions(reader, options, params);
  const rows = await queryAsJson<ProfileRow & { sort_key?: string | number }>(
    db,
    `select ${PROFILE_COLUMNS}${sortKeyColumn(options.sort)} ${PROFILES_FROM} ${sql}`,
    params,
    outputOrder,
  );
  return {
    data: rows.slice(0, options.limit).map(toProfile),
    next_cursor: nextCursor(options.sort, rows, options.limit),
  };
}

/**
 * The WHERE, ORDER BY and LIMIT of a page of the list over `p` and `s`, the first parameter being the account.
 * The limit is written out: as a parameter, a prepared statement's generic plan assumes a tenth of the account's
 * profiles, costs more than a custom one, and so every run is planned again, which took longer the more profiles
 * there were (PGlite: 1.1 ms a page of 10,000 against 0.6 ms).
 */
export function listConditions(
  reader: Reader,
  options: ProfileListOptions,
  params: unknown[],
): { sql: string; outputOrder: string } {
  if (!Number.isSafeInteger(options.limit))
    throw new Error(`a list's limit must be an integer: ${options.limit}`);
  const where = ['p.account_id = $1', ...scopeOfTags(reader, params), ...filterConditions(options, params)];
  const order = orderOf(options.sort, options.after, params);
  if (order.where) where.push(order.where);
  return {
    sql: `where ${where.join(' and ')} order by ${order.orderBy} limit ${options.limit + 1}`,
    outputOrder: order.outputOrder,
  };
}

/** How many of the account's profiles the filters of a list match, on every page together. */
export async function countProfiles(db: Queryable, reader: Reader, filter: ProfileFilter): Promise<number> {
  const params: unknown[] = [reader.id];
  const searchPiece = filter.q ? await searchPieceOf(db, filter.q) : undefined;
  const filters = filterConditions({ ...filter, searchPiece }, params);
  const where = ['p.account_id = $1', ...scopeOfTags(reader, params), ...filters];
  const [row] = await db.query<{ total: number }>(
    `select count(*)::int as total ${PROFILES_LIVE_FROM} where ${where.join(' and ')}`,
    params,
  );
  return row?.total ?? 0;
}

export async function getProfile(db: Queryable, reader: Reader, id: string): Promise<Profile | null> {
  const row = await findProfileRow(db, reader, id);
  return row ? toProfile(row) : null;
}

/** What the session layer needs to launch a browser for a profile: the profile and its proxy with password. */
export async function getProfileLaunchSettings(
  db: Queryable,
  accountId: string,
  id: string,
): Promise<{ profile: Profile; proxy: ProxyParts | null; fingerprint: Fingerprint } | null> {
  const [row] = await db.query<ProfileRow & { proxy_password: string | null }>(
    `select r.*, case when x.id is null then p.proxy_password else x.password end as proxy_password
       from (${SELECT_PROFILES} where p.account_id = $1 and p.id = $2) r
       join profiles p on p.id = r.id
       left join proxies x on x.id = p.proxy_id`,
    [accountId, id],
  );
  if (!row) return null;
  const proxy = proxyPartsOf(row);
  return {
    profile: toProfile(row),
    proxy: proxy && { ...proxy, password: row.proxy_password },
    fingerprint: row.fingerprint,
  };
}

export async function insertProfile(
  db: Queryable,
  clock: Clock,
  accountId: string,
  fields: ProfileFields,
): Promise<Profile> {
  const own = fields.proxy ? parseProxyUrl(fields.proxy) : null;
  if (own && 'error' in own) throw new Error(`proxy was validated but does not parse: ${own.error}`);
  const id = newId('prf');
  const now = clock.now();
  await db.query(
    `insert into profiles (id, account_id, name, proxy_id, proxy_scheme, proxy_host, proxy_port, proxy_username,
                           proxy_password, tags, notes, fingerprint, identity, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12::jsonb, $13::jsonb, $14, $14)`,
    [
      id,
      accountId,
      fields.name,
      fields.proxy_id ?? null,
      own?.scheme ?? null,
      own?.host ?? null,
      own?.port ?? null,
      own?.username ?? null,
      own?.password ?? null,
      JSON.stringify(fields.tags ?? []),
      fields.notes ?? '',
      JSON.stringify(fields.fingerprint ?? {}),
      JSON.stringify(fields.identity ?? null),
      now,
    ],
  );
  const created = await getProfile(db, everything(accountId), id);
  if (!created) throw new Error('inserted profile not found');
  return created;
}

/** Deletes the profile unless a session became live meanwhile: 'deleted', 'running' or 'missing'. */
export async function deleteIdleProfile(
  db: Queryable,
  accountId: string,
  id: string,
): Promise<'deleted' | 'running' | 'missing'> {
  const rows = await db.query<{ id: string }>(
    `delete from profiles p where p.account_id = $1 and p.id = $2
        and not exists (select 1 from sessions s where s.profile_id = p.id and ${sessionIsLive('s.status')})
     returning p.id`,
    [accountId, id],
  );
  if (rows.length > 0) return 'deleted';
  return (await findProfileRow(db, everything(accountId), id)) ? 'running' : 'missing';
}

async function findProfileRow(db: Queryable, reader: Reader, id: string): Promise<ProfileRow | null> {
  const params: unknown[] = [reader.id, id];
  const where = ['p.account_id = $1 and p.id = $2', ...scopeOfTags(reader, params)];
  const rows = await db.query<ProfileRow>(`${SELECT_PROFILES} where ${where.join(' and ')}`, params);
  return rows[0] ?? null;
}

function proxyPartsOf(row: ProfileRow): Omit<ProxyParts, 'password'> | null {
  if (!row.proxy_scheme || !row.proxy_host || !row.proxy_port) return null;
  return {
    scheme: row.proxy_scheme,
    host: row.proxy_host,
    port: row.proxy_port,
    username: row.proxy_username,
  };
}
