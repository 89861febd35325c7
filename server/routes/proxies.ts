import { NotFound } from '../core/domain-errors';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { checkOwnProxy, createOwnProxy, deleteOwnProxy, replaceOwnProxy } from '../proxies/proxy-operations';
import { pasteProxies } from '../proxies/proxy-paste';
import { getProxy, listProxies } from '../store/proxies';

export const proxyRoutes: Route[] = [
  route('listProxies', async (c, { query, status }, { db }) => {
    const page = await listProxies(db, c.get('account').id, { ...query, after: readCursor(query.cursor) });
    return c.json(page, status);
  }),

  route('createProxy', async (c, { body, keep }, { clock, events }) => {
    const accountId = c.get('account').id;
    return events.writeWithEvents(async (tx, emit) => {
      const proxy = await createOwnProxy(tx, emit, clock, accountId, body);
      return keep(tx, proxy, { Location: `/v1/proxies/${proxy.id}` });
    });
  }),

  route('pasteProxies', async (c, { body, status }, deps) => {
    return c.json(await pasteProxies(deps, c.get('account').id, body.lines), status);
  }),

  route('getProxy', async (c, { params, status }, { db }) => {
    const proxy = await getProxy(db, c.get('account').id, params.id);
    if (!proxy) throw new NotFound('proxy');
    return c.json(proxy, status);
  }),

  route('updateProxy', async (c, { params, body, status }, deps) => {
    return c.json(await replaceOwnProxy(deps, c.get('account').id, params.id, body), status);
  }),

  route('deleteProxy', async (c, { params, status }, deps) => {
    await deleteOwnProxy(deps, c.get('account').id, params.id);
    return c.body(null, status);
  }),

  route('checkProxy', async (c, { params, status }, { db, clock, config }) => {
    const checker = { db, clock, checkUrl: config.proxyCheckUrl, egress: config.egress };
    return c.json(await checkOwnProxy(checker, c.get('account').id, params.id), status);
  }),
];
