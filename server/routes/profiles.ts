import type { ProfileSortName } from '../../lib/api/profile-sorts';
import { NotFound } from '../core/domain-errors';
import { bulkAnswer } from '../http/bulk-answer';
import { actInTurn } from '../http/bulk-turns';
import { validationProblem } from '../http/problem';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { checkIdentity } from '../identity/check';
import { requireInScope } from '../profiles/in-scope';
import { listProfilePage } from '../profiles/profile-list';
import { profileOf } from '../profiles/profile-of';
import {
  cloneOwnProfile,
  createOwnProfile,
  deleteOwnProfile,
  updateOwnProfile,
} from '../profiles/profile-operations';
import { releaseProfile } from '../profiles/profile-release';
import { listVersions, restoreVersion } from '../profiles/profile-versions';
import { readSortedCursor, type SortedPosition } from '../store/profile-order';
import { listProfileTags } from '../store/profile-tags';
import { countProfiles } from '../store/profiles';

export const profileRoutes: Route[] = [
  // Before getProfile, whose `:id` would take the word `tags`.
  route('listProfileTags', async (c, { query, status }, { db }) => {
    const offset = readCursor(query.cursor) ?? 0;
    return c.json(await listProfileTags(db, c.get('account'), { limit: query.limit, offset }), status);
  }),

  route('listProfiles', async (c, { query, status }, { db }) => {
    const reader = c.get('account');
    const filter = { q: query.q, tag: query.tag, status: query.status };
    const order = { sort: query.sort, after: readListPosition(query.sort, query.cursor) };
    const [page, total] = await Promise.all([
      listProfilePage(db, reader, { limit: query.limit, ...order, ...filter }),
      query.total === 'true' ? countProfiles(db, reader, filter) : undefined,
    ]);
    return c.json(total === undefined ? page : { ...page, total }, status);
  }),

  route('createProfile', async (c, { body, keep }, { clock, events }) => {
    const accountId = c.get('account').id;
    return events.writeWithEvents(async (tx, emit) => {
      const profile = await createOwnProfile(tx, emit, clock, accountId, body);
      return keep(tx, profile, { Location: `/v1/profiles/${profile.id}` });
    });
  }),

  route('getProfile', async (c, { params, status }, { db }) => {
    const profile = await profileOf(db, c.get('account'), params.id);
    return c.json(profile, status);
  }),

  route('updateProfile', async (c, { params, body, status }, deps) => {
    await requireInScope(deps.db, c.get('account'), params.id);
    return c.json(await updateOwnProfile(deps, c.get('account').id, params.id, body), status);
  }),

  route('cloneProfile', async (c, { params, body, keep }, { db, clock, events }) => {
    const accountId = c.get('account').id;
    await requireInScope(db, c.get('account'), params.id);
    const options = { name: body.name, keepIdentity: body.keep_identity === true };
    return events.writeWithEvents(async (tx, emit) => {
      const copy = await cloneOwnProfile(tx, emit, clock, accountId, params.id, options);
      return keep(tx, copy, { Location: `/v1/profiles/${copy.id}` });
    });
  }),

  route('checkProfileIdentity', async (c, { params, status }, deps) => {
    await requireInScope(deps.db, c.get('account'), params.id);
    return c.json(await checkIdentity(deps, c.get('account').id, params.id, c.get('account').member), status);
  }),

  route('deleteProfile', async (c, { params, query, status }, deps) => {
    const { db, events, sessions, config, log } = deps;
    const parts = { db, events, sessions, dataDir: config.dataDir, log };
    await deleteOwnProfile(parts, c.get('account'), params.id, query.force === 'true');
    return c.body(null, status);
  }),

  route('releaseProfile', async (c, { params, status }, deps) => {
    return c.json(await releaseProfile(deps, c.get('account'), params.id), status);
  }),

  route('listProfileVersions', async (c, { params, status }, { db }) => {
    const data = await listVersions(db, c.get('account'), params.id);
    return c.json({ data, next_cursor: null }, status);
  }),

  route('restoreProfileVersion', async (c, { params, status }, deps) => {
    const version = Number(params.version);
    if (!Number.isSafeInteger(version) || version < 1) throw new NotFound('kept saved state');
    return c.json(await restoreVersion(deps, c.get('account'), params.id, version), status);
  }),

  route('bulkProfiles', async (c, { body, status }, deps) => {
    const parts = { ...deps, dataDir: deps.config.dataDir };
    const done = await actInTurn(parts, c.get('account'), body);
    return c.json(bulkAnswer(body.action, done, deps.log), status);
  }),
];

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
