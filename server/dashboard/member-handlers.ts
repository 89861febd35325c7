import { mustMay } from '../accounts/permit';
import { invite, removeMember, updateMember } from '../accounts/workspace';
import { recordAct } from '../http/audit-call';
import { releaseProfilesOfMember } from '../profiles/profile-release';
import { auditPage } from '../routes/audit';
import { invitationUrl } from '../routes/workspace';
import { listMembers } from '../store/members';
import type { DashboardHandlers } from './route';

/**
 * The workspace's people and agents, invitations, role and scope changes, removals and the audit log, for the
 * person signed in: each act is the API's (accounts/workspace.ts), allowed by the same permissions table and
 * recorded in the audit log as the API records it.
 */
export const memberHandlers: DashboardHandlers<
  'listMembers' | 'inviteMember' | 'changeMember' | 'removeMember' | 'listAudit'
> = {
  async listMembers(_c, { account }, { db }) {
    mustMay(account.role, 'listMembers');
    return { data: await listMembers(db, account.id) };
  },

  async inviteMember(c, { account, body }, deps) {
    mustMay(account.role, 'inviteMember');
    const origin = new URL(c.req.url).origin;
    const invitation = await invite(deps, account, body, (token) => invitationUrl(origin, token));
    const { url: _link, ...kept } = invitation;
    await recordAct(deps, account.id, account, 'inviteMember', { params: {}, body, query: {}, answer: kept });
    return invitation;
  },

  async changeMember(_c, { account, body, params }, deps) {
    mustMay(account.role, 'updateMember');
    const changed = await updateMember(deps, account, params.id, body);
    await recordAct(deps, account.id, account, 'updateMember', { params, body, query: {}, answer: changed });
    return changed;
  },

  async removeMember(_c, { account, params }, deps) {
    mustMay(account.role, 'removeMember');
    await removeMember(deps, account, params.id);
    await releaseProfilesOfMember(deps, account.id, params.id);
    await recordAct(deps, account.id, account, 'removeMember', {
      params,
      body: null,
      query: {},
      answer: null,
    });
    return undefined;
  },

  async listAudit(_c, { account, query }, { db }) {
    mustMay(account.role, 'listAudit');
    return auditPage(db, account.id, query);
  },
};
