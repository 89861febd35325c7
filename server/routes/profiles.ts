import { rm } from 'node:fs/promises';
import { Hono } from 'hono';
import { ProfileCreate } from '../../lib/api/inputs/profiles';
import { ProfileDeleteQuery, ProfileListQuery } from '../../lib/api/inputs/queries';
import { profileDataDir } from '../data-dir';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/env';
import { recordAnswer, sendAnswer } from '../http/idempotency';
import { notFound, ProblemError, validationProblem } from '../http/problem';
import { readCursor, readJsonBody, readQuery } from '../http/validate';
import { deleteIdleProfile, getProfile, insertProfile, listProfiles } from '../store/profiles';
import { findProxyRow } from '../store/proxies';

export function profileRoutes({ db, clock, config, log, sessions }: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/v1/profiles', async (c) => {
    const query = readQuery(c, ProfileListQuery);
    const page = await listProfiles(db, c.get('account').id, {
      limit: query.limit,
      after: readCursor(query.cursor),
      q: query.q,
      status: query.status,
    });
    return c.json(page);
  });

  routes.post('/v1/profiles', async (c) => {
    const body = await readJsonBody(c, ProfileCreate);
    const accountId = c.get('account').id;
    const answer = await db.transaction(async (tx) => {
      // Locked for share: the proxy cannot be deleted before this profile that points at it is committed.
      if (body.proxy_id && !(await findProxyRow(tx, accountId, body.proxy_id, { lock: true }))) {
        throw validationProblem(
          [{ path: 'proxy_id', message: 'is not one of your saved proxies' }],
          'Invalid body: proxy_id: there is no saved proxy with this id.',
        );
      }
      const profile = await insertProfile(tx, clock, accountId, body);
      return recordAnswer(c, tx, {
        status: 201,
        body: profile,
        headers: { Location: `/v1/profiles/${profile.id}` },
      });
    });
    return sendAnswer(c, answer);
  });

  routes.get('/v1/profiles/:id', async (c) => {
    const profile = await getProfile(db, c.get('account').id, c.req.param('id'));
    if (!profile) throw notFound('profile');
    return c.json(profile);
  });

  routes.delete('/v1/profiles/:id', async (c) => {
    const { force } = readQuery(c, ProfileDeleteQuery);
    const accountId = c.get('account').id;
    const id = c.req.param('id');
    const profile = await getProfile(db, accountId, id);
    if (!profile) throw notFound('profile');
    if (profile.session_id) {
      if (force !== 'true') throw profileRunning(profile.session_id);
      await sessions.stopForProfile(accountId, id, 'profile_deleted');
    }
    const outcome = await deleteIdleProfile(db, accountId, id);
    if (outcome === 'missing') throw notFound('profile');
    if (outcome === 'running') {
      throw profileRunning((await getProfile(db, accountId, id))?.session_id ?? null);
    }
    const browserData = profileDataDir(config.dataDir, id);
    await rm(browserData, { recursive: true, force: true, maxRetries: 3 }).catch((error: unknown) => {
      log.warn('could not remove the browser data of a deleted profile', { path: browserData, error });
    });
    return c.body(null, 204);
  });

  return routes;
}

function profileRunning(sessionId: string | null): ProblemError {
  return new ProblemError({
    status: 409,
    code: 'profile_running',
    detail:
      'The profile has a running session; stop it first, or delete with ?force=true to stop it for you.',
    extensions: { session_id: sessionId },
  });
}
