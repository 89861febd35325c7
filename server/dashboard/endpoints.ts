import { BatchList } from '../../lib/api/schemas/automation';
import { Session } from '../../lib/api/schemas/sessions';
import { Member } from '../../lib/api/schemas/workspace';
import { z } from '../../lib/api/zod';
import {
  ChangePasswordInput,
  CreatedDashboardKey,
  CreateKeyInput,
  DashboardKey,
  DashboardKeyList,
  DashboardStatus,
  DeleteAccountInput,
  SignedInAccount,
  SignInInput,
  SignInLinkInput,
  SignUpInput,
  Usage,
} from '../../lib/dashboard/schemas';
import {
  AuditList,
  AuditQuery,
  Invitation,
  InvitationLinkInput,
  InvitationOffer,
  InviteInput,
  JoinInput,
  MemberChangeInput,
  MemberList,
} from '../../lib/dashboard/workspace-schemas';

type Schema = z.core.$ZodType;

export interface DashboardEndpoint {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under /dashboard/api, with `:param` segments. */
  path: string;
  status: 200 | 201 | 204;
  /** The JSON body it takes, checked (lib/dashboard/schemas.ts) before the handler runs. */
  input?: Schema;
  /** The query it takes, checked likewise. */
  query?: Schema;
  /** What it answers; absent for 204. */
  answer?: Schema;
  /** Only for the person signed in with the dashboard's cookie (401 otherwise). */
  signedIn: boolean;
}

export function endpoint<const E extends DashboardEndpoint>(e: E): E {
  return e;
}

/** The sessions of the account that run now, each with live view addresses made for the dashboard's origin. */
const RunningSessions = z.object({ data: z.array(Session) });
/** A small recent picture of a running session's page, as a data: address the page shows as it is. */
const SessionThumbnail = z.object({ image: z.string() });

/**
 * Every JSON endpoint of the dashboard's pages. Not part of the /v1 API nor of its OpenAPI document: they take
 * the sign-in cookie, never a key, and only from the dashboard's own origin (guards.ts).
 */
export const dashboardEndpoints = {
  getStatus: endpoint({
    method: 'GET',
    path: '/status',
    status: 200,
    answer: DashboardStatus,
    signedIn: false,
  }),
  signUp: endpoint({
    method: 'POST',
    path: '/sign-up',
    status: 201,
    input: SignUpInput,
    answer: SignedInAccount,
    signedIn: false,
  }),
  signIn: endpoint({
    method: 'POST',
    path: '/sign-in',
    status: 200,
    input: SignInInput,
    answer: SignedInAccount,
    signedIn: false,
  }),
  signInByLink: endpoint({
    method: 'POST',
    path: '/sign-in/link',
    status: 200,
    input: SignInLinkInput,
    answer: SignedInAccount,
    signedIn: false,
  }),
  signOut: endpoint({ method: 'POST', path: '/sign-out', status: 204, signedIn: false }),
  readInvitation: endpoint({
    method: 'POST',
    path: '/invitation',
    status: 200,
    input: InvitationLinkInput,
    answer: InvitationOffer,
    signedIn: false,
  }),
  join: endpoint({
    method: 'POST',
    path: '/join',
    status: 201,
    input: JoinInput,
    answer: SignedInAccount,
    signedIn: false,
  }),

  listKeys: endpoint({ method: 'GET', path: '/keys', status: 200, answer: DashboardKeyList, signedIn: true }),
  createKey: endpoint({
    method: 'POST',
    path: '/keys',
    status: 201,
    input: CreateKeyInput,
    answer: CreatedDashboardKey,
    signedIn: true,
  }),
  revokeKey: endpoint({
    method: 'DELETE',
    path: '/keys/:id',
    status: 200,
    answer: DashboardKey,
    signedIn: true,
  }),

  listMembers: endpoint({ method: 'GET', path: '/members', status: 200, answer: MemberList, signedIn: true }),
  inviteMember: endpoint({
    method: 'POST',
    path: '/members/invitations',
    status: 201,
    input: InviteInput,
    answer: Invitation,
    signedIn: true,
  }),
  changeMember: endpoint({
    method: 'PATCH',
    path: '/members/:id',
    status: 200,
    input: MemberChangeInput,
    answer: Member,
    signedIn: true,
  }),
  removeMember: endpoint({ method: 'DELETE', path: '/members/:id', status: 204, signedIn: true }),
  listAudit: endpoint({
    method: 'GET',
    path: '/audit',
    status: 200,
    query: AuditQuery,
    answer: AuditList,
    signedIn: true,
  }),

  listRunningSessions: endpoint({
    method: 'GET',
    path: '/sessions',
    status: 200,
    answer: RunningSessions,
    signedIn: true,
  }),
  getSessionThumbnail: endpoint({
    method: 'GET',
    path: '/sessions/:id/thumbnail',
    status: 200,
    answer: SessionThumbnail,
    signedIn: true,
  }),
  stopSession: endpoint({
    method: 'POST',
    path: '/sessions/:id/stop',
    status: 200,
    answer: Session,
    signedIn: true,
  }),
  /** The account's batches, newest first, each summed up; `?cursor=` the next page. */
  listBatches: endpoint({ method: 'GET', path: '/batches', status: 200, answer: BatchList, signedIn: true }),
  getUsage: endpoint({ method: 'GET', path: '/usage', status: 200, answer: Usage, signedIn: true }),
  changePassword: endpoint({
    method: 'PUT',
    path: '/password',
    status: 204,
    input: ChangePasswordInput,
    signedIn: true,
  }),
  deleteAccount: endpoint({
    method: 'DELETE',
    path: '/account',
    status: 204,
    input: DeleteAccountInput,
    signedIn: true,
  }),
} as const;

export type DashboardEndpointName = keyof typeof dashboardEndpoints;
