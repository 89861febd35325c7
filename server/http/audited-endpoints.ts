import type { EndpointName } from '../../lib/api/endpoints';

/** What a request did, as its route saw it: path parameters, validated body and query, and its JSON answer. */
export interface AuditedRequest {
  params: Record<string, string>;
  body: unknown;
  query: unknown;
  answer: unknown;
}

/** How an endpoint's successful call is recorded: its action, the profile it touched, and what else to keep. */
export interface AuditedAct {
  action: string;
  profileId(request: AuditedRequest): string | null;
  detail?(request: AuditedRequest): Record<string, unknown>;
}

const field = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** An act on the profile the path names. */
const onPathProfile = (action: string, detail?: AuditedAct['detail']): AuditedAct => ({
  action,
  profileId: ({ params }) => params.id ?? null,
  ...(detail ? { detail } : {}),
});
/** An act on the profile the answer names (a session, a run). */
const onAnsweredProfile = (action: string, detail?: AuditedAct['detail']): AuditedAct => ({
  action,
  profileId: ({ answer }) => text(field(answer, 'profile_id')),
  ...(detail ? { detail } : {}),
});
/** An act on the workspace (a proxy, a key, a member), with the id it touched. */
const onWorkspace = (action: string, idField: string): AuditedAct => ({
  action,
  profileId: () => null,
  detail: ({ params, answer }) => ({ [idField]: params.id ?? text(field(answer, 'id')) }),
});

const sessionOf = ({ answer }: AuditedRequest) => ({ session_id: text(field(answer, 'id')) });
const runOf = ({ answer }: AuditedRequest) => ({ run_id: text(field(answer, 'id')) });

/**
 * The endpoints whose successful calls the audit log records: every act on a profile or on the workspace. Reads
 * are not recorded, but for cookie exports, which take a profile's sign-ins away.
 */
export const AUDITED: Partial<Record<EndpointName, AuditedAct>> = {
  createProfile: { action: 'profile.create', profileId: ({ answer }) => text(field(answer, 'id')) },
  updateProfile: onPathProfile('profile.edit', ({ body }) => ({ fields: Object.keys(body ?? {}) })),
  deleteProfile: onPathProfile('profile.delete'),
  releaseProfile: onPathProfile('profile.release', ({ body }) => ({ reason: field(body, 'reason') })),
  restoreProfileVersion: onPathProfile('profile.restore', ({ answer, params }) => ({
    version: Number(params.version),
    as_version: field(answer, 'version'),
  })),
  getProfileCookies: onPathProfile('cookies.export'),
  getProfileCookieFile: onPathProfile('cookies.export'),
  putProfileCookies: onPathProfile('cookies.import', ({ answer }) => ({
    imported: field(answer, 'imported'),
  })),
  bulkProfiles: {
    action: 'profiles.bulk',
    profileId: () => null,
    detail: ({ body, answer }) => ({ action: field(body, 'action'), selected: field(answer, 'selected') }),
  },
  startSession: onAnsweredProfile('session.start', sessionOf),
  stopSession: onAnsweredProfile('session.stop', sessionOf),
  runAutomation: onAnsweredProfile('run', runOf),
  takeHelpRequest: onAnsweredProfile('help.take_over', ({ answer }) => ({
    help_request_id: field(answer, 'id'),
  })),
  rerunRun: onAnsweredProfile('run', runOf),
  createProxy: onWorkspace('proxy.create', 'proxy_id'),
  updateProxy: onWorkspace('proxy.edit', 'proxy_id'),
  deleteProxy: onWorkspace('proxy.delete', 'proxy_id'),
  createKey: onWorkspace('key.create', 'key_id'),
  revokeKey: onWorkspace('key.revoke', 'key_id'),
  inviteMember: onWorkspace('member.invite', 'invitation_id'),
  updateMember: onWorkspace('member.change', 'member_id'),
  removeMember: onWorkspace('member.remove', 'member_id'),
};
