import { rm } from 'node:fs/promises';
import type { ProfileUpdate } from '../../lib/api/inputs/profiles';
import type { ProfileSortName } from '../../lib/api/profile-sorts';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { z } from '../../lib/api/zod';
import type { Clock } from '../core/clock';
import { profileDataDir } from '../core/data-dir';
import { NotFound } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import type { Emit } from '../events/event-log';
import type { AppDeps } from '../http/deps';
import { ProblemError, validationProblem } from '../http/problem';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { checkIdentity } from '../identity/check';
import { generateIdentity } from '../identity/generate';
import { cloneProfile, updateProfile } from '../store/profile-changes';
import { listProfilesJson, profilePageText } from '../store/profile-list-json';
import { readSortedCursor, type SortedPosition } from '../store/profile-order';
import {
  countProfiles,
  deleteIdleProfile,
  getProfile,
  insertProfile,
  type ProfileFields,
} from '../store/profiles';
import { findProxyRow } from '../store/proxies';

export const profileRoutes: Route[] = [
  route('listProfiles', async (c, { query, status }, { db }) => {
    const accountId = c.get('account').id;
    const filter = { q: query.q, tag: query.tag, status: query.status };
    const order = { sort: query.sort, after: readListPosition(query.sort, query.cursor) };
    const [page, total] = await Promise.all([
      listProfilesJson(db, accountId, { limit: query.limit, ...order, ...filter }),
      query.total === 'true' ? countProfiles(db, accountId, filter) : undefined,
    ]);
    return c.body(profilePageText(page, total), status, { 'Content-Type': 'application/json' });
  }),

  route('createProfile', async (c, { body, keep }, { clock, events }) => {
    const accountId = c.get('account').id;
    return events.writeWithEvents(async (tx, emit) => {
      const profile = await createOwnProfile(tx, emit, clock, accountId, body);
      return keep(tx, profile, { Location: `/v1/profiles/${profile.id}` });
    });
  }),

  route('getProfile', async (c, { params, status }, { db }) => {
    const profile = await getProfile(db, c.get('account').id, params.id);
    if (!profile) throw new NotFound('profile');
    return c.json(profile, status);
  }),

  route('updateProfile', async (c, { params, body, status }, deps) => {
    return c.json(await updateOwnProfile(deps, c.get('account').id, params.id, body), status);
  }),

  route('cloneProfile', async (c, { params, body, keep }, { clock, events }) => {
    const accountId = c.get('account').id;
    return events.writeWithEvents(async (tx, emit) => {
      const identity = body.keep_identity ? null : generateIdentity();
      const copy = await cloneProfile(tx, clock, accountId, params.id, { name: body.name, identity });
      if (!copy) throw new NotFound('profile');
      await emit(accountId, 'profile.created', copy);
      return keep(tx, copy, { Location: `/v1/profiles/${copy.id}` });
    });
  }),

  route('checkProfileIdentity', async (c, { params, status }, deps) => {
    return c.json(await checkIdentity(deps, c.get('account').id, params.id), status);
  }),

  route('deleteProfile', async (c, { params, query, status }, deps) => {
    await deleteOwnProfile(deps, c.get('account').id, params.id, query.force === 'true');
    return c.body(null, status);
  }),
];

/** Creates a profile of the account in `tx`, reported as `profile.created` (for the route and the MCP tool). */
export async function createOwnProfile(
  tx: Queryable,
  emit: Emit,
  clock: Clock,
  accountId: string,
  body: ProfileFields,
): Promise<Profile> {
  await requireOwnProxy(tx, accountId, body.proxy_id);
  const identity = body.identity ?? generateIdentity(body.identity_preset);
  const profile = await insertProfile(tx, clock, accountId, { ...body, identity });
  await emit(accountId, 'profile.created', profile);
  return profile;
}

/** Changes a profile of the account; a running browser keeps the settings it started with. */
export async function updateOwnProfile(
  { clock, events }: Pick<AppDeps, 'clock' | 'events'>,
  accountId: string,
  id: string,
  body: z.output<typeof ProfileUpdate>,
): Promise<Profile & { applies_at_next_start: boolean }> {
  const profile = await events.writeWithEvents(async (tx, emit) => {
    await requireOwnProxy(tx, accountId, body.proxy_id);
    const { new_identity, identity_preset, ...changes } = body;
    if (new_identity) changes.identity = generateIdentity(identity_preset);
    const updated = await updateProfile(tx, clock, accountId, id, changes);
    if (updated) await emit(accountId, 'profile.updated', updated);
    return updated;
  });
  if (!profile) throw new NotFound('profile');
  return { ...profile, applies_at_next_start: profile.status === 'running' };
}

/** Deletes a profile of the account and its browser data; a running one only with `force` (its session stops). */
export async function deleteOwnProfile(
  { db, config, log, sessions, events }: AppDeps,
  accountId: string,
  id: string,
  force: boolean,
): Promise<void> {
  const profile = await getProfile(db, accountId, id);
  if (!profile) throw new NotFound('profile');
  if (profile.session_id) {
    if (!force) throw profileRunning(profile.session_id);
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
}

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

/** Where a page in `sort` order continues, from its cursor: a cursor of another order is not one of this list's. */
function readListPosition(
  sort: ProfileSortName | undefined,
  cursor: string | undefined,
): number | SortedPosition | null {
  if (sort === undefined || sort === 'created' || !cursor) return readCursor(cursor);
  const position = readSortedCursor(sort, cursor);
  if (position) return position;
  throw validationProblem(
    [{ path: 'cursor', message: 'is not a cursor from this list' }],
    'Invalid query: cursor: use the next_cursor of the previous page, in the same sort, as it came.',
  );
}
