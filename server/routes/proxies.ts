import type { ProxyCheck, ProxyConfig } from '../../lib/api/schemas/proxies';
import type { Clock } from '../core/clock';
import { NotFound } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import { isForeignKeyViolation } from '../db/errors';
import type { Emit } from '../events/event-log';
import type { AppDeps } from '../http/deps';
import { ProblemError } from '../http/problem';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { checkExit, proxyCheckAnswer } from '../identity/exit-place';
import {
  deleteProxy,
  findProxyRow,
  getProxy,
  insertProxy,
  listProxies,
  type ProxyFields,
  profilesUsingProxy,
  replaceProxy,
} from '../store/proxies';

export const proxyRoutes: Route[] = [
  route('listProxies', async (c, { query, status }, { db }) => {
    const page = await listProxies(db, c.get('account').id, {
      limit: query.limit,
      after: readCursor(query.cursor),
    });
    return c.json(page, status);
  }),

  route('createProxy', async (c, { body, keep }, { clock, events }) => {
    const accountId = c.get('account').id;
    return events.writeWithEvents(async (tx, emit) => {
      const proxy = await createOwnProxy(tx, emit, clock, accountId, body);
      return keep(tx, proxy, { Location: `/v1/proxies/${proxy.id}` });
    });
  }),

  route('getProxy', async (c, { params, status }, { db }) => {
    const proxy = await getProxy(db, c.get('account').id, params.id);
    if (!proxy) throw new NotFound('proxy');
    return c.json(proxy, status);
  }),

  route('updateProxy', async (c, { params, body, status }, { clock, events }) => {
    const accountId = c.get('account').id;
    const proxy = await events.writeWithEvents(async (tx, emit) => {
      const replaced = await replaceProxy(tx, clock, accountId, params.id, body);
      if (replaced) await emit(accountId, 'proxy.updated', replaced);
      return replaced;
    });
    if (!proxy) throw new NotFound('proxy');
    return c.json(proxy, status);
  }),

  route('deleteProxy', async (c, { params, status }, { db, events }) => {
    const accountId = c.get('account').id;
    const { id } = params;
    const deleted = await events
      .writeWithEvents(async (tx, emit) => {
        const users = await profilesUsingProxy(tx, accountId, id);
        if (users.length > 0) throw proxyInUse(users);
        const gone = await deleteProxy(tx, accountId, id);
        if (gone) await emit(accountId, 'proxy.deleted', { id });
        return gone;
      })
      .catch(async (error: unknown) => {
        // A profile pointing at it was committed meanwhile (possible on PostgreSQL, not on PGlite).
        if (isForeignKeyViolation(error)) throw proxyInUse(await profilesUsingProxy(db, accountId, id));
        throw error;
      });
    if (!deleted) throw new NotFound('proxy');
    return c.body(null, status);
  }),

  route('checkProxy', async (c, { params, status }, deps) => {
    return c.json(await checkOwnProxy(deps, c.get('account').id, params.id), status);
  }),
];

/** Saves a proxy of the account in `tx`, reported as `proxy.created` (for the route and the MCP tool). */
export async function createOwnProxy(
  tx: Queryable,
  emit: Emit,
  clock: Clock,
  accountId: string,
  body: ProxyFields,
): Promise<ProxyConfig> {
  const proxy = await insertProxy(tx, clock, accountId, body);
  await emit(accountId, 'proxy.created', proxy);
  return proxy;
}

/** Tries a saved proxy of the account against the operator's PROXY_CHECK_URL, under the egress policy. */
export async function checkOwnProxy(
  { db, config }: Pick<AppDeps, 'db' | 'config'>,
  accountId: string,
  id: string,
): Promise<ProxyCheck> {
  const proxy = await findProxyRow(db, accountId, id);
  if (!proxy) throw new NotFound('proxy');
  if (!config.proxyCheckUrl)
    throw new ProblemError({
      status: 503,
      code: 'proxy_check_off',
      detail: 'Proxy checks are turned off on this service: its operator has set no PROXY_CHECK_URL.',
    });
  const { scheme, host, port, username, password } = proxy;
  const result = await checkExit({
    proxy: { scheme, host, port, username, password },
    checkUrl: config.proxyCheckUrl,
    policy: config.egress,
    timeoutMs: PROXY_CHECK_TIMEOUT_MS,
  });
  return proxyCheckAnswer(result);
}

/** A proxy check gives up after this long, saying so. */
const PROXY_CHECK_TIMEOUT_MS = 10_000;

function proxyInUse(profileIds: string[]): ProblemError {
  const count = profileIds.length;
  return new ProblemError({
    status: 409,
    code: 'proxy_in_use',
    detail: `${count} profile${count === 1 ? ' uses' : 's use'} this proxy; point ${count === 1 ? 'it' : 'them'} elsewhere or delete ${count === 1 ? 'it' : 'them'} first.`,
    extensions: { profile_ids: profileIds },
  });
}
