import { rm } from 'node:fs/promises';
import { profileDataDir } from '../core/data-dir';
import { NotFound } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import { recordAnswer, sendAnswer } from '../http/idempotency';
import { ProblemError, validationProblem } from '../http/problem';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { cloneProfile, updateProfile } from '../store/profile-changes';
import { countProfiles, deleteIdleProfile, getProfile, insertProfile, listProfiles } from '../store/profiles';
import { findProxyRow } from '../store/proxies';

export const profileRoutes: Route[] = [
  route('listProfiles', async (c, { query, status }, { db }) => {
    const accountId = c.get('account').id;
    const filter = { q: query.q, tag: query.tag, status: query.status };
    const [page, total] = await Promise.all([
      listProfiles(db, accountId, { limit: query.limit, after: readCursor(query.cursor), ...filter }),
      query.total === 'true' ? countProfiles(db, accountId, filter) : undefined,
    ]);
    return c.json(total === undefined ? page : { ...page, total }, status);
  }),

  route('createProfile', async (c, { body, status }, { clock, events }) => {
    const accountId = c.get('account').id;
    const answer = await events.writeWithEvents(async (tx, emit) => {
      await requireOwnProxy(tx, accountId, body.proxy_id);
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
    if (!profile) throw new NotFound('profile');
    return c.json(profile, status);
  }),

  route('updateProfile', async (c, { params, body, status }, { clock, events }) => {
    const accountId = c.get('account').id;
    const profile = await events.writeWithEvents(async (tx, emit) => {
      await requireOwnProxy(tx, accountId, body.proxy_id);
      const updated = await updateProfile(tx, clock, accountId, params.id, body);
      if (updated) await emit(accountId, 'profile.updated', updated);
      return updated;
    });
    if (!profile) throw new NotFound('profile');
    // A running browser keeps the settings it started with.
    return c.json({ ...profile, applies_at_next_start: profile.status === 'running' }, status);
  }),

  route('cloneProfile', async (c, { params, body, status }, { clock, events }) => {
    const accountId = c.get('account').id;
    const answer = await events.writeWithEvents(async (tx, emit) => {
      const copy = await cloneProfile(tx, clock, accountId, params.id, body.name);
      if (!copy) throw new NotFound('profile');
      await emit(accountId, 'profile.created', copy);
      return recordAnswer(c, tx, { status, body: copy, headers: { Location: `/v1/profiles/${copy.id}` } });
    });
    return sendAnswer(c, answer);
  }),

  route('deleteProfile', async (c, { params, query, status }, { db, config, log, sessions, events }) => {
    const { force } = query;
    const accountId = c.get('account').id;
    const { id } = params;
    const profile = await getProfile(db, accountId, id);
    if (!profile) throw new NotFound('profile');
    if (profile.session_id) {
      if (force !== 'true') throw profileRunning(profile.session_id);
      await sessions.stopForProfile(accountId, id, 'profile_deleted');
    }
    const outcome = await events.writeWithEvents(async (tx, emit) => {
      const deleted = await deleteIdleProfile(tx, accountId, id);
      if (deleted === 'deleted') await emit(accountId, 'profile.deleted', { id });
      return deleted;
    });
    if (outcome === 'missing') throw new NotFound('profile');
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

/** Locked for share: the proxy cannot be deleted before the profile that points at it is committed. */
async function requireOwnProxy(tx: Queryable, accountId: string, proxyId: string | null | undefined) {
  if (proxyId && !(await findProxyRow(tx, accountId, proxyId, { lock: true }))) {
    throw validationProblem(
      [{ path: 'proxy_id', message: 'is not one of your saved proxies' }],
      'Invalid body: proxy_id: there is no saved proxy with this id.',
    );
  }
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
