import type { EndpointName } from './endpoints';
import { RunCreate } from './inputs/automation';
import { BulkRequest } from './inputs/bulk';
import { CookieImport, CookieQuery } from './inputs/cookies';
import { HelpAnswer } from './inputs/help-answer';
import { AuditQuery, ProfileRelease, UsageQuery } from './inputs/leases';
import { ProfileClone, ProfileCreate, ProfileUpdate } from './inputs/profiles';
import { ProxyInput, ProxyPaste, ProxyReplace } from './inputs/proxies';
import {
  BatchExportQuery,
  BatchListQuery,
  HelpRequestListQuery,
  ProfileDeleteQuery,
  ProfileExportQuery,
  ProfileListQuery,
  ProfileTagQuery,
  ProxyListQuery,
  RunStatusQuery,
  SessionListQuery,
  WebhookListQuery,
} from './inputs/queries';
import { SessionStart, SessionStartInLine, SessionStop } from './inputs/sessions';
import { WebhookCreate } from './inputs/webhooks';
import { InvitationCreate, KeyCreate, MemberUpdate } from './inputs/workspace';
import type { z } from './zod';

type Schema = z.core.$ZodType;

/** What each endpoint takes: its query string and JSON body. The service validates with these. */
export const requests = {
  listProfiles: { query: ProfileListQuery },
  listProfileTags: { query: ProfileTagQuery },
  createProfile: { body: ProfileCreate },
  updateProfile: { body: ProfileUpdate },
  cloneProfile: { body: ProfileClone },
  getProfileCookies: { query: CookieQuery },
  getProfileCookieFile: { query: CookieQuery },
  putProfileCookies: { query: CookieQuery, body: CookieImport },
  deleteProfile: { query: ProfileDeleteQuery },
  releaseProfile: { body: ProfileRelease },
  listAudit: { query: AuditQuery },
  getUsage: { query: UsageQuery },
  bulkProfiles: { body: BulkRequest },
  exportProfiles: { query: ProfileExportQuery },
  listProxies: { query: ProxyListQuery },
  createProxy: { body: ProxyInput },
  pasteProxies: { body: ProxyPaste },
  replaceProxies: { body: ProxyReplace },
  updateProxy: { body: ProxyInput },
  listSessions: { query: SessionListQuery },
  startSession: { body: SessionStart },
  startSessionInLine: { body: SessionStartInLine },
  stopSession: { query: SessionStop },
  runAutomation: { body: RunCreate },
  getRun: { query: RunStatusQuery },
  listRuns: { query: RunStatusQuery },
  exportBatch: { query: BatchExportQuery },
  listBatches: { query: BatchListQuery },
  createWebhook: { body: WebhookCreate },
  listWebhooks: { query: WebhookListQuery },
  listWebhookDeliveries: { query: WebhookListQuery },
  listHelpRequests: { query: HelpRequestListQuery },
  answerHelpRequest: { body: HelpAnswer },
  createKey: { body: KeyCreate },
  inviteMember: { body: InvitationCreate },
  updateMember: { body: MemberUpdate },
} satisfies Partial<Record<EndpointName, { query?: Schema; body?: Schema }>>;
