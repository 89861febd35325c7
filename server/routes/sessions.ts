import type { Context } from 'hono';
import { Hono } from 'hono';
import { SessionListQuery } from '../../lib/api/inputs/queries';
import { SessionStart, SessionStop } from '../../lib/api/inputs/sessions';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/problem';
import { readCursor, readJsonBody, readQuery, validate } from '../http/validate';
import { findSession, findSessionOfProfile, listSessions } from '../store/sessions';

export function sessionRoutes({ db, sessions }: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/v1/sessions', async (c) => {
    const query = readQuery(c, SessionListQuery);
    const origin = originOf(c);
    return c.json(
      await listSessions(
        db,
        c.get('account').id,
        { limit: query.limit, after: readCursor(query.cursor), status: query.status },
        (row) => sessions.view(row, origin),
      ),
    );
  });

  routes.get('/v1/sessions/:id', async (c) => {
    const row = await findSession(db, c.get('account').id, c.req.param('id'));
    if (!row) throw notFound('session');
    return c.json(sessions.view(row, originOf(c)));
  });

  routes.post('/v1/sessions/start', async (c) => {
    const body = await readJsonBody(c, SessionStart);
    const row = await sessions.start(c.get('account').id, body.profile_id, body.headless);
    return c.json(sessions.view(row, originOf(c)), 201, { Location: `/v1/sessions/${row.id}` });
  });

  routes.delete('/v1/sessions/stop', async (c) => {
    const selector = await readStopSelector(c);
    const accountId = c.get('account').id;
    const row = selector.session_id
      ? await findSession(db, accountId, selector.session_id)
      : await findSessionOfProfile(db, accountId, selector.profile_id as string);
    if (!row) throw notFound(selector.session_id ? 'session' : 'session for this profile');
    return c.json(await sessions.stop(row, 'user'));
  });

  return routes;
}

/** Where the client reached the service: the `cdp_url` it is given points there too. */
function originOf(c: Context<AppEnv>): string {
  return new URL(c.req.url).origin;
}

/** `?session_id=` or `?profile_id=`, or the same field in a JSON body. */
async function readStopSelector(c: Context<AppEnv>) {
  const query = c.req.query();
  if (Object.keys(query).length > 0 || !c.req.header('content-type'))
    return validate(SessionStop, query, 'query');
  return readJsonBody(c, SessionStop);
}
