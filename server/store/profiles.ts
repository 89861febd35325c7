import type { Fingerprint, ProfileCreate } from '../../lib/api/inputs/profiles';
import { formatProxyUrl, type ProxyParts, parseProxyUrl } from '../../lib/api/proxy-url';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { z } from '../../lib/api/zod';
import type { Clock } from '../clock';
import type { Queryable } from '../db/driver';
import { newId } from '../ids';
import { type Page, toPage } from './pagination';
import { LIVE_SESSION_STATUSES } from './sessions';

interface ProfileRow {
  seq: number;
  id: string;
  name: string;
  proxy_id: string | null;
  proxy_scheme: ProxyParts['scheme'] | null;
  proxy_host: string | null;
  proxy_port: number | null;
  proxy_username: string | null;
  proxy_password: string | null;
  tags: string[];
  notes: string;
  fingerprint: Fingerprint;
  created_at: Date;
  updated_at: Date;
  live_session_id: string | null;
}

/** A validated ProfileCreate body (proxy_id already checked to be the account's). */
export type ProfileFields = z.output<typeof ProfileCreate>;

export type ProfileStatusFilter = 'idle' | 'running';

/** What a list of profiles is narrowed to: `q` in the name or a tag, one exact `tag`, a status. */
export interface ProfileFilter {
  q?: string | undefined;
  tag?: string | undefined;
  status?: ProfileStatusFilter | undefined;
}

/**
 * A profile with its effective proxy (its own, or the saved one it points at) and its live session:
 * the partial unique index on sessions allows at most one live session per profile.
 */
const SELECT_PROFILES = `
  select p.seq, p.id, p.name, p.proxy_id, p.tags, p.notes, p.fingerprint, p.created_at, p.updated_at,
         coalesce(x.scheme, p.proxy_scheme) as proxy_scheme, coalesce(x.host, p.proxy_host) as proxy_host,
         coalesce(x.port, p.proxy_port) as proxy_port,
         case when x.id is null then p.proxy_username else x.username end as proxy_username,
         case when x.id is null then p.proxy_password else x.password end as proxy_password,
         s.id as live_session_id
    from profiles p
    left join proxies x on x.id = p.proxy_id
    left join sessions s on s.profile_id = p.id and s.status = any($1::text[])`;

/** A tag of the profile matches the `ilike` pattern in parameter `param`. */
const TAG_MATCHES = (param: string) =>
  `exists (select 1 from jsonb_array_elements_text(p.tags) t where t ilike ${param} escape '\\')`;

export function toProfile(row: ProfileRow): Profile {
  const proxy = proxyPartsOf(row);
  return {
    id: row.id,
    name: row.name,
    proxy: proxy ? formatProxyUrl(proxy) : null,
    proxy_id: row.proxy_id,
    tags: row.tags,
    notes: row.notes,
    fingerprint: row.fingerprint,
    status: row.live_session_id ? 'running' : 'idle',
    session_id: row.live_session_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function listProfiles(
  db: Queryable,
  accountId: string,
  options: { limit: number; after: number | null } & ProfileFilter,
): Promise<Page<Profile>> {
  const rows = await db.query<ProfileRow>(
    `${SELECT_PROFILES}
      where p.account_id = $2
        and ($3::bigint is null or p.seq < $3)
        and ($4::text is null or p.name ilike $4 escape '\\' or ${TAG_MATCHES('$4')})
        and ($5::text is null or ($5 = 'running') = (s.id is not null))
        and ($7::text is null or p.tags @> jsonb_build_array($7::text))
      order by p.seq desc limit $6`,
    [
      LIVE_SESSION_STATUSES,
      accountId,
      options.after,
      options.q ? `%${escapeLike(options.q)}%` : null,
      options.status ?? null,
      options.limit + 1,
      options.tag ?? null,
    ],
  );
  return toPage(rows, options.limit, toProfile);
}

/** How many of the account's profiles the filters of a list match, on every page together. */
export async function countProfiles(
  db: Queryable,
  accountId: string,
  filter: ProfileFilter,
): Promise<number> {
  const [row] = await db.query<{ total: number }>(
    `select count(*)::int as total from profiles p
      where p.account_id = $1
        and ($2::text is null or p.name ilike $2 escape '\\' or ${TAG_MATCHES('$2')})
        and ($3::text is null or p.tags @> jsonb_build_array($3::text))
        and ($4::text is null or ($4 = 'running') = exists (
              select 1 from sessions s where s.profile_id = p.id and s.status = any($5::text[])))`,
    [
      accountId,
      filter.q ? `%${escapeLike(filter.q)}%` : null,
      filter.tag ?? null,
      filter.status ?? null,
      LIVE_SESSION_STATUSES,
    ],
  );
  return row?.total ?? 0;
}

export async function getProfile(db: Queryable, accountId: string, id: string): Promise<Profile | null> {
  const row = await findProfileRow(db, accountId, id);
  return row ? toProfile(row) : null;
}

/** What the session layer needs to launch a browser for a profile: the profile and its proxy with password. */
export async function getProfileLaunchSettings(
  db: Queryable,
  accountId: string,
  id: string,
): Promise<{ profile: Profile; proxy: ProxyParts | null; fingerprint: Fingerprint } | null> {
  const row = await findProfileRow(db, accountId, id);
  return row ? { profile: toProfile(row), proxy: proxyPartsOf(row), fingerprint: row.fingerprint } : null;
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
                           proxy_password, tags, notes, fingerprint, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12::jsonb, $13, $13)`,
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
      now,
    ],
  );
  const created = await getProfile(db, accountId, id);
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
        and not exists (select 1 from sessions s where s.profile_id = p.id and s.status = any($3::text[]))
     returning p.id`,
    [accountId, id, LIVE_SESSION_STATUSES],
  );
  if (rows.length > 0) return 'deleted';
  return (await findProfileRow(db, accountId, id)) ? 'running' : 'missing';
}

async function findProfileRow(db: Queryable, accountId: string, id: string): Promise<ProfileRow | null> {
  const rows = await db.query<ProfileRow>(`${SELECT_PROFILES} where p.account_id = $2 and p.id = $3`, [
    LIVE_SESSION_STATUSES,
    accountId,
    id,
  ]);
  return rows[0] ?? null;
}

function proxyPartsOf(row: ProfileRow): ProxyParts | null {
  if (!row.proxy_scheme || !row.proxy_host || !row.proxy_port) return null;
  return {
    scheme: row.proxy_scheme,
    host: row.proxy_host,
    port: row.proxy_port,
    username: row.proxy_username,
    password: row.proxy_password,
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
