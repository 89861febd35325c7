import type { ProfileSortName } from '../../lib/api/profile-sorts';
import type { ProxyParts } from '../../lib/api/proxy-url';
import type { Identity } from '../../lib/api/schemas/identity';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { profilesByIds } from './profile-bulk';
import type { ProfileFilter } from './profile-filter';
import { type SortedPosition, sortKeyColumn } from './profile-order';
import { listConditions, PROFILES_FROM } from './profiles';
import type { Reader } from './scope';

/** A profile as a sheet holds it: its name, effective proxy (with its password), tags and notes. */
export interface SheetProfile {
  name: string;
  proxy: ProxyParts | null;
  tags: string[];
  notes: string;
}

interface SheetRowRead {
  seq: number;
  sort_key?: string | number;
  name: string;
  tags: string[];
  notes: string;
  scheme: ProxyParts['scheme'] | null;
  host: string | null;
  port: number | null;
  username: string | null;
  password: string | null;
}

/** Where the next page of an export starts: as GET /v1/profiles's cursor holds it. */
export type ExportPosition = number | SortedPosition | null;

/** One page of the account's profiles for a sheet, in the list's filter and order, after `after`. */
export async function sheetPage(
  db: Queryable,
  reader: Reader,
  options: ProfileFilter & { sort?: ProfileSortName | undefined; after: ExportPosition; limit: number },
): Promise<{ profiles: SheetProfile[]; next: ExportPosition }> {
  const params: unknown[] = [reader.id];
  const { sql } = listConditions(reader, options, params);
  const sortKey = sortKeyColumn(options.sort);
  const rows = await db.query<SheetRowRead>(
    `select p.seq, p.name, p.tags, p.notes,
            coalesce(x.scheme, p.proxy_scheme) as scheme, coalesce(x.host, p.proxy_host) as host,
            coalesce(x.port, p.proxy_port) as port,
            case when x.id is null then p.proxy_username else x.username end as username,
            case when x.id is null then p.proxy_password else x.password end as password${sortKey}
       ${PROFILES_FROM} ${sql}`,
    params,
  );
  const page = rows.slice(0, options.limit);
  const last = rows.length > options.limit ? page[page.length - 1] : undefined;
  const next: ExportPosition = !last
    ? null
    : sortKey
      ? { key: last.sort_key as string | number, seq: last.seq }
      : last.seq;
  return {
    profiles: page.map(({ name, tags, notes, scheme, host, port, username, password }) => ({
      name,
      tags,
      notes,
      proxy: scheme && host && port ? { scheme, host, port, username, password } : null,
    })),
    next,
  };
}

/** A profile of a sheet as it is made: its saved proxy (or none) and a generated identity. */
export interface NewSheetProfile {
  name: string;
  proxyId: string | null;
  tags: string[];
  notes: string;
  identity: Identity;
}

/** Makes the profiles in one statement, in order, and answers them as the API shows them. */
export async function insertSheetProfiles(
  tx: Queryable,
  clock: Clock,
  accountId: string,
  profiles: NewSheetProfile[],
): Promise<Profile[]> {
  if (profiles.length === 0) return [];
  const ids = profiles.map(() => newId('prf'));
  const column = <K extends keyof NewSheetProfile>(key: K) => profiles.map((profile) => profile[key]);
  await tx.query(
    `insert into profiles (id, account_id, name, proxy_id, tags, notes, fingerprint, identity, created_at, updated_at)
     select t.id, $1, t.name, t.proxy_id, t.tags::jsonb, t.notes, '{}'::jsonb, t.identity::jsonb, $2, $2
       from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
            with ordinality as t(id, name, proxy_id, tags, notes, identity, n)
      order by t.n`,
    [
      accountId,
      clock.now(),
      ids,
      column('name'),
      column('proxyId'),
      profiles.map(({ tags }) => JSON.stringify(tags)),
      column('notes'),
      profiles.map(({ identity }) => JSON.stringify(identity)),
    ],
  );
  const made = new Map((await profilesByIds(tx, accountId, ids)).map((profile) => [profile.id, profile]));
  return ids.map((id) => made.get(id) as Profile);
}
