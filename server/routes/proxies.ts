import { Hono } from 'hono';
import { ProxyInput } from '../../lib/api/inputs/proxies';
import { ProxyListQuery } from '../../lib/api/inputs/queries';
import { isForeignKeyViolation } from '../db/errors';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/env';
import { recordAnswer, sendAnswer } from '../http/idempotency';
import { notFound, ProblemError } from '../http/problem';
import { readCursor, readJsonBody, readQuery } from '../http/validate';
import {
  deleteProxy,
  getProxy,
  insertProxy,
  listProxies,
  profilesUsingProxy,
  replaceProxy,
} from '../store/proxies';

export function proxyRoutes({ db, clock }: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/v1/proxies', async (c) => {
    const query = readQuery(c, ProxyListQuery);
    return c.json(
      await listProxies(db, c.get('account').id, { limit: query.limit, after: readCursor(query.cursor) }),
    );
  });

  routes.post('/v1/proxies', async (c) => {
    const body = await readJsonBody(c, ProxyInput);
    const answer = await db.transaction(async (tx) => {
      const proxy = await insertProxy(tx, clock, c.get('account').id, body);
      return recordAnswer(c, tx, {
        status: 201,
        body: proxy,
        headers: { Location: `/v1/proxies/${proxy.id}` },
      });
    });
    return sendAnswer(c, answer);
  });

  routes.get('/v1/proxies/:id', async (c) => {
    const proxy = await getProxy(db, c.get('account').id, c.req.param('id'));
    if (!proxy) throw notFound('proxy');
    return c.json(proxy);
  });

  routes.put('/v1/proxies/:id', async (c) => {
    const body = await readJsonBody(c, ProxyInput);
    const proxy = await replaceProxy(db, clock, c.get('account').id, c.req.param('id'), body);
    if (!proxy) throw notFound('proxy');
    return c.json(proxy);
  });

  routes.delete('/v1/proxies/:id', async (c) => {
    const accountId = c.get('account').id;
    const id = c.req.param('id');
    const deleted = await db
      .transaction(async (tx) => {
        const users = await profilesUsingProxy(tx, accountId, id);
        if (users.length > 0) throw proxyInUse(users);
        return deleteProxy(tx, accountId, id);
      })
      .catch(async (error: unknown) => {
        // A profile pointing at it was committed meanwhile (possible on PostgreSQL, not on PGlite).
        if (isForeignKeyViolation(error)) throw proxyInUse(await profilesUsingProxy(db, accountId, id));
        throw error;
      });
    if (!deleted) throw notFound('proxy');
    return c.body(null, 204);
  });

  return routes;
}

function proxyInUse(profileIds: string[]): ProblemError {
  const count = profileIds.length;
  return new ProblemError({
    status: 409,
    code: 'proxy_in_use',
    detail: `${count} profile${count === 1 ? ' uses' : 's use'} this proxy; point ${count === 1 ? 'it' : 'them'} elsewhere or delete ${count === 1 ? 'it' : 'them'} first.`,
    extensions: { profile_ids: profileIds },
  });
}
