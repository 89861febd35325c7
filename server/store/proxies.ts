import type { ProxyInput } from '../../lib/api/inputs/proxies';
import { formatProxyUrl, type ProxyParts, proxyLabel } from '../../lib/api/proxy-url';
import type { Plan } from '../../lib/api/schemas/account';
import type { ProxyCheck, ProxyConfig } from '../../lib/api/schemas/proxies';
import type { z } from '../../lib/api/zod';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { firstRow } from './first-row';
import { escapeLike } from './like';
import { type Page, toPage } from './pagination';

type Scheme = ProxyParts['scheme'];

interface ProxyRow {
  seq: number;
  id: string;
  name: string;
  scheme: Scheme;
  host: string;
  port: number;
  username: string | null;
  password: string | null;
  used_by: number | string;
  last_check: ProxyCheck | null;
  checked_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A validated ProxyInput body. On replace, `password: undefined` keeps the stored one and null clears it. */
export type ProxyFields = z.output<typeof ProxyInput>;

// used_by is counted in SQL by the profiles' proxy index (profiles_by_proxy), for each row listed only.
const COLUMNS = `seq, id, name, scheme, host, port, username, password, last_check, checked_at, created_at, updated_at,
  (select count(*) from profiles p where p.account_id = proxies.account_id and p.proxy_id = proxies.id) as used_by`;

/** The proxy as clients see it: never the password, only whether there is one. */
export function toProxy(row: ProxyRow): ProxyConfig {
  return {
    id: row.id,
    name: row.name,
    scheme: row.scheme,
    host: row.host,
    port: row.port,
    username: row.username,
    has_password: row.password !== null,
    url: formatProxyUrl(row),
    used_by: Number(row.used_by),
    last_check:
      row.last_check && row.checked_at
        ? { ...row.last_check, checked_at: row.checked_at.toISOString() }
        : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** What a list of proxies is narrowed to: `q` in the name or user@host:port, only the failing ones. */
export interface ProxyFilter {
  limit: number;
  after: number | null;
  q?: string | undefined;
  status?: 'failing' | undefined;
}

export async function listProxies(
  db: Queryable,
  accountId: string,
  { limit, after, q, status }: ProxyFilter,
): Promise<Page<ProxyConfig>> {
  const params: unknown[] = [accountId, limit + 1];
  const where = ['account_id = $1'];
  if (after !== null) where.push(`seq < $${params.push(after)}`);
  if (q?.trim()) {
    const like = `like lower($${params.push(`%${escapeLike(q.trim())}%`)}) escape '\\'`;
    // search_text is the name and user@host:port lowercased by the database (migration 033).
    where.push(`search_text ${like}`);
  }
  if (status === 'failing') where.push(`(last_check ->> 'ok') = 'false'`);
  const rows = await db.query<ProxyRow>(
    `select ${COLUMNS} from proxies where ${where.join(' and ')} order by seq desc limit $2`,
    params,
  );
  return toPage(rows, limit, toProxy);
}

/** Keeps a proxy's last check, for its lists; nothing if the proxy was deleted meanwhile. */
export async function recordProxyCheck(
  db: Queryable,
  clock: Clock,
  accountId: string,
  id: string,
  check: ProxyCheck,
): Promise<void> {
  await db.query(
    'update proxies set last_check = $3::jsonb, checked_at = $4 where account_id = $1 and id = $2',
    [accountId, id, JSON.stringify(check), clock.now()],
  );
}

export async function getProxy(db: Queryable, accountId: string, id: string): Promise<ProxyConfig | null> {
  const row = await findProxyRow(db, accountId, id);
  return row ? toProxy(row) : null;
}

/** The proxy's parts with its password, for launching a browser; null if the account has no such proxy. */
export async function findProxyRow(
  db: Queryable,
  accountId: string,
  id: string,
  { lock = false } = {},
): Promise<ProxyRow | null> {
  return firstRow(
    db.query<ProxyRow>(
      `select ${COLUMNS} from proxies where account_id = $1 and id = $2${lock ? ' for share' : ''}`,
      [accountId, id],
    ),
  );
}

export async function insertProxy(
  db: Queryable,
  clock: Clock,
  accountId: string,
  fields: ProxyFields,
): Promise<ProxyConfig> {
  const now = clock.now();
  const [row] = await db.query<ProxyRow>(
    `insert into proxies (id, account_id, name, scheme, host, port, username, password, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) returning ${COLUMNS}`,
    [
      newId('prx'),
      accountId,
      fields.name ?? proxyLabel({ ...fields, host: normalizeHost(fields.host) }),
      fields.scheme,
      normalizeHost(fields.host),
      fields.port,
      fields.username ?? null,
      fields.password ?? null,
      now,
    ],
  );
  if (!row) throw new Error('insert into proxies returned no row');
  return toProxy(row);
}

/** Replaces the whole configuration; null if the account has no such proxy. */
export async function replaceProxy(
  db: Queryable,
  clock: Clock,
  accountId: string,
  id: string,
  fields: ProxyFields,
): Promise<ProxyConfig | null> {
  const [row] = await db.query<ProxyRow>(
    `update proxies
        set name = $3, scheme = $4, host = $5, port = $6, username = $7,
            password = case when $8 then $9 else password end, updated_at = $10
      where account_id = $1 and id = $2
      returning ${COLUMNS}`,
    [
      accountId,
      id,
      fields.name ?? proxyLabel({ ...fields, host: normalizeHost(fields.host) }),
      fields.scheme,
      normalizeHost(fields.host),
      fields.port,
      fields.username ?? null,
      fields.password !== undefined,
      fields.password ?? null,
      clock.now(),
    ],
  );
  return row ? toProxy(row) : null;
}

/** Ids of the account's profiles that use the proxy. */
export async function profilesUsingProxy(db: Queryable, accountId: string, id: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'select id from profiles where account_id = $1 and proxy_id = $2 order by seq',
    [accountId, id],
  );
  return rows.map((row) => row.id);
}

export async function deleteProxy(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const rows = await db.query('delete from proxies where account_id = $1 and id = $2 returning id', [
    accountId,
    id,
  ]);
  return rows.length > 0;
}

// Host names are case-insensitive; one spelling keeps the displayed URL stable.
function normalizeHost(host: string): string {
  return host.trim().toLowerCase();
}

/** Every saved proxy of the account with its password: what a pasted list is matched against. */
export async function proxyAddresses(
  db: Queryable,
  accountId: string,
): Promise<(ProxyParts & { id: string; name: string })[]> {
  return db.query<ProxyParts & { id: string; name: string }>(
    'select id, name, scheme, host, port, username, password from proxies where account_id = $1 order by seq',
    [accountId],
  );
}

/** Saves many proxies in one statement, in order, each named `name`. */
export async function insertProxies(
  db: Queryable,
  clock: Clock,
  accountId: string,
  proxies: (ProxyParts & { name: string })[],
): Promise<ProxyConfig[]> {
  if (proxies.length === 0) return [];
  const column = <K extends keyof (ProxyParts & { name: string })>(key: K) =>
    proxies.map((proxy) => proxy[key]);
  const rows = await db.query<ProxyRow>(
    `insert into proxies (id, account_id, name, scheme, host, port, username, password, created_at, updated_at)
     select t.id, $1, t.name, t.scheme, t.host, t.port, t.username, t.password, $2, $2
       from unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[], $9::text[])
            with ordinality as t(id, name, scheme, host, port, username, password, n)
      order by t.n
     returning ${COLUMNS}`,
    [
      accountId,
      clock.now(),
      proxies.map(() => newId('prx')),
      column('name'),
      column('scheme'),
      proxies.map((proxy) => normalizeHost(proxy.host)),
      column('port'),
      column('username'),
      column('password'),
    ],
  );
  return rows.sort((a, b) => a.seq - b.seq).map(toProxy);
}

/**
 * The account's plan and how many proxies it keeps, its row locked until the transaction ends: two requests that
 * save proxies for one account count one after the other.
 */
export async function lockProxyCount(
  tx: Queryable,
  accountId: string,
): Promise<{ plan: Plan; count: number }> {
  const [row] = await tx.query<{ plan: Plan; count: number }>(
    `select a.plan, (select count(*)::int from proxies x where x.account_id = a.id) as count
       from accounts a where a.id = $1 for update`,
    [accountId],
  );
  if (!row) throw new Error(`no account ${accountId}`);
  return row;
}
