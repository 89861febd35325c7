import { rm } from 'node:fs/promises';
import { profileDataDir } from '../data-dir';
import { recordAnswer, sendAnswer } from '../http/idempotency';
import { notFound, ProblemError, validationProblem } from '../http/problem';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { deleteIdleProfile, getProfile, insertProfile, listProfiles } from '../store/profiles';
import { findProxyRow } from '../store/proxies';

export const profileRoutes: Route[] = [
  route('listProfiles', async (c, { query, status }, { db }) => {
    const page = await listProfiles(db, c.get('account').id, {
      limit: query.limit,
      after: readCursor(query.cursor),
      q: query.q,
      status: query.status,
    });
    return c.json(page, status);
  }),

  route('createProfile', async (c, { body, status }, { clock, events }) => {
    const accountId = c.get('account').id;
    const answer = await events.transaction(async (tx, emit) => {
      // Locked for share: the proxy cannot be deleted before this profile that points at it is committed.
      if (body.proxy_id && !(await findProxyRow(tx, accountId, body.proxy_id, { lock: true }))) {
        throw validationProblem(
          [{ path: 'proxy_id', message: 'is not one of your saved proxies' }],
          'Invalid body: proxy_id: there is no saved proxy with this id.',
        );
      }
      const profile = await insertProfile(tx, clock, accountId, body);
      await emit(accountId, 'profile.created', profile);
      return recordAnswer(c, tx, {
        status,
        body: profile,
        headers: { Location: `/v1/profiles/${profile.id}` },
      });
    });
    return sendAnswer(c, answer);
  }),

  route('getProfile', async (c, { params, status }, { db }) => {
    const profile = await getProfile(db, c.get('account').id, params.id);
    if (!profile) throw notFound('profile');
    return c.json(profile, status);
  }),

  route('deleteProfile', async (c, { params, query, status }, { db, config, log, sessions, events }) => {
    const { force } = query;
    const accountId = c.get('account').id;
    const { id } = params;
    const profile = await getProfile(db, accountId, id);
    if (!profile) throw notFound('profile');
    if (profile.session_id) {
      if (force !== 'true') throw profileRunning(profile.session_id);
      await sessions.stopForProfile(accountId, id, 'profile_deleted');
    }
    const outcome = await events.transaction(async (tx, emit) => {
      const deleted = await deleteIdleProfile(tx, accountId, id);
      if (deleted === 'deleted') await emit(accountId, 'profile.deleted', { id });
      return deleted;
    });
    if (outcome === 'missing') throw notFound('profile');
    if (outcome === 'running') {
      throw profileRunning((await getProfile(db, accountId, id))?.session_id ?? null);
    }
    const browserData = profileDataDir(config.dataDir, id);
    await rm(browserData, { recursive: true, force: true, maxRetries: 3 }).catch((error: unknown) => {
      log.warn('could not remove the browser data of a deleted profile', { path: browserData, error });
    });
    return c.body(null, status);
  }),
];

function profileRunning(sessionId: string | null): ProblemError {
  return new ProblemError({
    status: 409,
    code: 'profile_running',
    detail:
      'The profile has a running session; stop it first, or delete with ?force=true to stop it for you.',
    extensions: { session_id: sessionId },
  });
}
