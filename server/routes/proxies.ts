import { checkProxy } from '../browser/proxy-check';
import { NotFound } from '../core/domain-errors';
import { isForeignKeyViolation } from '../db/errors';
import { recordAnswer, sendAnswer } from '../http/idempotency';
import { ProblemError } from '../http/problem';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import {
  deleteProxy,
  findProxyRow,
  getProxy,
  insertProxy,
  listProxies,
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

  route('createProxy', async (c, { body, status }, { clock, events }) => {
    const accountId = c.get('account').id;
    const answer = await events.writeWithEvents(async (tx, emit) => {
      const proxy = await insertProxy(tx, clock, accountId, body);
      await emit(accountId, 'proxy.created', proxy);
      return recordAnswer(c, tx, { status, body: proxy, headers: { Location: `/v1/proxies/${proxy.id}` } });
    });
    return sendAnswer(c, answer);
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

  route('checkProxy', async (c, { params, status }, { db, config }) => {
    const proxy = await findProxyRow(db, c.get('account').id, params.id);
    if (!proxy) throw new NotFound('proxy');
    if (!config.proxyCheckUrl)
      throw new ProblemError({
        status: 503,
        code: 'proxy_check_off',
        detail: 'Proxy checks are turned off on this service: its operator has set no PROXY_CHECK_URL.',
      });
    const { scheme, host, port, username, password } = proxy;
    const result = await checkProxy({
      proxy: { scheme, host, port, username, password },
      checkUrl: config.proxyCheckUrl,
      policy: config.egress,
      timeoutMs: PROXY_CHECK_TIMEOUT_MS,
    });
    return c.json(result, status);
  }),
];

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
