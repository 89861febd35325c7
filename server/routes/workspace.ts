import { invite, makeAgentKey, removeMember, updateMember } from '../accounts/workspace';
import { NotFound } from '../core/domain-errors';
import { type Route, route } from '../http/route';
import { releaseProfilesOfMember } from '../profiles/profile-release';
import { findWorkspaceKey, listMembers, listWorkspaceKeys, revokeWorkspaceKey } from '../store/members';

/** The address of an invitation's link on the dashboard: its token after the hash, never sent in a request. */
export const invitationUrl = (origin: string, token: string) =>
  new URL(`/dashboard/#/join/${token}`, origin).href;

export const workspaceRoutes: Route[] = [
  route('createKey', async (c, { body, status }, deps) => {
    return c.json(await makeAgentKey(deps, c.get('account'), body), status);
  }),

  route('listKeys', async (c, { status }, { db }) => {
    return c.json({ data: await listWorkspaceKeys(db, c.get('account').id) }, status);
  }),

  route('revokeKey', async (c, { params, status }, { db, clock }) => {
    const accountId = c.get('account').id;
    if (!(await findWorkspaceKey(db, accountId, params.id))) throw new NotFound('key');
    await revokeWorkspaceKey(db, clock, accountId, params.id);
    return c.json(await findWorkspaceKey(db, accountId, params.id), status);
  }),

  route('inviteMember', async (c, { body, status }, deps) => {
    const origin = new URL(c.req.url).origin;
    return c.json(
      await invite(deps, c.get('account'), body, (token) => invitationUrl(origin, token)),
      status,
    );
  }),

  route('listMembers', async (c, { status }, { db }) => {
    return c.json({ data: await listMembers(db, c.get('account').id) }, status);
  }),

  route('updateMember', async (c, { params, body, status }, deps) => {
    return c.json(await updateMember(deps, c.get('account'), params.id, body), status);
  }),

  route('removeMember', async (c, { params, status }, deps) => {
    await removeMember(deps, c.get('account'), params.id);
    await releaseProfilesOfMember(deps, c.get('account').id, params.id);
    return c.body(null, status);
  }),
];
