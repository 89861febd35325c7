import { endpoint } from './endpoint';
import { AuditList } from './schemas/leases';
import { Usage } from './schemas/usage';
import { ApiKey, ApiKeyList, CreatedApiKey, Invitation, Member, MemberList } from './schemas/workspace';

/** The endpoints of the workspace's keys, members and audit (part of `endpoints`, in endpoints.ts). */
export const workspaceEndpoints = {
  /** Keys and members of the workspace: a key's answer and an invitation's link are never stored for replay. */
  createKey: endpoint({
    method: 'POST',
    idempotent: false,
    path: '/v1/keys',
    status: 201,
    response: CreatedApiKey,
  }),
  listKeys: endpoint({ method: 'GET', path: '/v1/keys', status: 200, response: ApiKeyList }),
  revokeKey: endpoint({ method: 'DELETE', path: '/v1/keys/:id', status: 200, response: ApiKey }),
  inviteMember: endpoint({
    method: 'POST',
    idempotent: false,
    path: '/v1/members/invitations',
    status: 201,
    response: Invitation,
  }),
  listMembers: endpoint({ method: 'GET', path: '/v1/members', status: 200, response: MemberList }),
  updateMember: endpoint({ method: 'PATCH', path: '/v1/members/:id', status: 200, response: Member }),
  removeMember: endpoint({ method: 'DELETE', path: '/v1/members/:id', status: 204 }),
  listAudit: endpoint({
    method: 'GET',
    path: '/v1/audit',
    status: 200,
    response: AuditList,
  }),
  getUsage: endpoint({ method: 'GET', path: '/v1/usage', status: 200, response: Usage }),
} as const;
