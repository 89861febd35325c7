import { automationEndpoints } from './automation-endpoints';
import { endpoint } from './endpoint';
import { Account } from './schemas/account';
import { BulkResult } from './schemas/bulk';
import { CookieList, CookiesImported } from './schemas/cookies';
import { CreatedWebhook, WebhookDeliveryList, WebhookList } from './schemas/events';
import { HelpRequest, HelpRequestList } from './schemas/help-requests';
import { IdentityCheck } from './schemas/identity-check';
import { ProfileVersion, ProfileVersionList } from './schemas/leases';
import { ProfileImportResult } from './schemas/profile-import';
import { Profile, ProfileList, ProfileTagList, ProfileUpdated } from './schemas/profiles';
import { ProxyCheck, ProxyConfig, ProxyList } from './schemas/proxies';
import { ProxyCheckJob, ProxyReplaceResult } from './schemas/proxy-fleet';
import { ProxyPasteResult } from './schemas/proxy-paste';
import { sessionEndpoints } from './session-endpoints';
import { workspaceEndpoints } from './workspace-endpoints';

/**
 * Every endpoint of the v1 contract with the schema of its answer. The client's methods and the service's
 * OpenAPI document are built from this table; what each endpoint takes is in requests.ts, apart, so that code
 * which only calls the service (the extension's worker) does not carry the request schemas: with them, the worker
 * would be 27.2 KB of gzipped JS instead of 23.6, over its 24 KB budget (npm run test:size).
 */
export const endpoints = {
  getAccount: endpoint({
    method: 'GET',
    path: '/v1/account',
    status: 200,
    response: Account,
  }),

  listProfiles: endpoint({
    method: 'GET',
    path: '/v1/profiles',
    status: 200,
    response: ProfileList,
  }),
  listProfileTags: endpoint({
    method: 'GET',
    path: '/v1/profiles/tags',
    status: 200,
    response: ProfileTagList,
  }),
  createProfile: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/profiles',
    status: 201,
    response: Profile,
  }),
  getProfile: endpoint({
    method: 'GET',
    path: '/v1/profiles/:id',
    status: 200,
    response: Profile,
  }),
  updateProfile: endpoint({
    method: 'PATCH',
    path: '/v1/profiles/:id',
    status: 200,
    response: ProfileUpdated,
  }),
  cloneProfile: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/profiles/:id/clone',
    status: 201,
    response: Profile,
  }),
  checkProfileIdentity: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/profiles/:id/check',
    status: 200,
    response: IdentityCheck,
  }),
  releaseProfile: endpoint({
    method: 'POST',
    idempotent: false,
    path: '/v1/profiles/:id/release',
    status: 200,
    response: Profile,
  }),
  listProfileVersions: endpoint({
    method: 'GET',
    path: '/v1/profiles/:id/versions',
    status: 200,
    response: ProfileVersionList,
  }),
  restoreProfileVersion: endpoint({
    method: 'POST',
    idempotent: false,
    path: '/v1/profiles/:id/versions/:version/restore',
    status: 200,
    response: ProfileVersion,
  }),
  getProfileCookies: endpoint({
    method: 'GET',
    path: '/v1/profiles/:id/cookies',
    status: 200,
    response: CookieList,
  }),
  /** The same, as a file: `?format=netscape` (or `Accept: text/plain`) for cookies.txt. */
  getProfileCookieFile: endpoint({
    method: 'GET',
    path: '/v1/profiles/:id/cookies',
    status: 200,
    binary: true,
  }),
  putProfileCookies: endpoint({
    method: 'PUT',
    path: '/v1/profiles/:id/cookies',
    status: 200,
    response: CookiesImported,
  }),
  deleteProfile: endpoint({
    method: 'DELETE',
    path: '/v1/profiles/:id',
    status: 204,
  }),
  bulkProfiles: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/profiles/bulk',
    status: 200,
    response: BulkResult,
  }),
  /** A sheet of profiles (text/csv or application/x-ndjson), each row answered. */
  importProfiles: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/profiles/import',
    status: 200,
    response: ProfileImportResult,
  }),
  /** The list's profiles as a sheet an import takes back, streamed. */
  exportProfiles: endpoint({
    method: 'GET',
    path: '/v1/profiles/export',
    status: 200,
    binary: true,
  }),

  listProxies: endpoint({
    method: 'GET',
    path: '/v1/proxies',
    status: 200,
    response: ProxyList,
  }),
  createProxy: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/proxies',
    status: 201,
    response: ProxyConfig,
  }),
  pasteProxies: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/proxies/paste',
    status: 200,
    response: ProxyPasteResult,
  }),
  checkAllProxies: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/proxies/checks',
    status: 202,
    response: ProxyCheckJob,
  }),
  getProxyCheckJob: endpoint({
    method: 'GET',
    path: '/v1/proxies/checks/:id',
    status: 200,
    response: ProxyCheckJob,
  }),
  replaceProxies: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/proxies/replace',
    status: 200,
    response: ProxyReplaceResult,
  }),
  getProxy: endpoint({
    method: 'GET',
    path: '/v1/proxies/:id',
    status: 200,
    response: ProxyConfig,
  }),
  updateProxy: endpoint({
    method: 'PUT',
    path: '/v1/proxies/:id',
    status: 200,
    response: ProxyConfig,
  }),
  deleteProxy: endpoint({
    method: 'DELETE',
    path: '/v1/proxies/:id',
    status: 204,
  }),
  checkProxy: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/proxies/:id/check',
    status: 200,
    response: ProxyCheck,
  }),

  ...sessionEndpoints,

  ...automationEndpoints,
  streamEvents: endpoint({
    method: 'GET',
    path: '/v1/events',
    status: 200,
    stream: true,
  }),
  createWebhook: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/webhooks',
    status: 201,
    response: CreatedWebhook,
  }),
  listWebhooks: endpoint({
    method: 'GET',
    path: '/v1/webhooks',
    status: 200,
    response: WebhookList,
  }),
  deleteWebhook: endpoint({
    method: 'DELETE',
    path: '/v1/webhooks/:id',
    status: 204,
  }),
  listWebhookDeliveries: endpoint({
    method: 'GET',
    path: '/v1/webhooks/:id/deliveries',
    status: 200,
    response: WebhookDeliveryList,
  }),

  listHelpRequests: endpoint({
    method: 'GET',
    path: '/v1/help-requests',
    status: 200,
    response: HelpRequestList,
  }),
  getHelpRequest: endpoint({
    method: 'GET',
    path: '/v1/help-requests/:id',
    status: 200,
    response: HelpRequest,
  }),
  answerHelpRequest: endpoint({
    method: 'POST',
    idempotent: true,
    path: '/v1/help-requests/:id/answer',
    status: 200,
    response: HelpRequest,
  }),
  takeHelpRequest: endpoint({
    method: 'POST',
    idempotent: false,
    path: '/v1/help-requests/:id/take',
    status: 200,
    response: HelpRequest,
  }),

  ...workspaceEndpoints,
} as const;

export type EndpointName = keyof typeof endpoints;
