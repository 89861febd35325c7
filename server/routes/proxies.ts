import { NotFound } from '../core/domain-errors';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { checkOwnProxy, createOwnProxy, deleteOwnProxy, replaceOwnProxy } from '../proxies/proxy-operations';
import { pasteProxies } from '../proxies/proxy-paste';
import { replaceProxiesOnProfiles } from '../proxies/proxy-replace';
import { getProxy, listProxies } from '../store/proxies';
import { findCheckJob } from '../store/proxy-check-jobs';

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

  route('checkAllProxies', async (c, { status }, { proxyChecks }) => {
    const job = await proxyChecks.start(c.get('account').id);
    return c.json(job, status, { Location: `/v1/proxies/checks/${job.id}` });
  }),

  route('getProxyCheckJob', async (c, { params, status }, { db }) => {
    const job = await findCheckJob(db, c.get('account').id, params.id);
    if (!job) throw new NotFound('proxy check');
    return c.json(job, status);
  }),

  route('replaceProxies', async (c, { body, status }, deps) => {
    return c.json(await replaceProxiesOnProfiles(deps, c.get('account'), body.replacements), status);
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
