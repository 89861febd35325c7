import type { BulkActionName } from './bulk-limits';
import type { EndpointName } from './endpoints';
import { isAtLeast, type Role } from './roles';

/** The least role that may call an endpoint, and what calling it is, as a refusal says it. */
export interface Permission {
  least: Role;
  act: string;
}

const may = (least: Role, act: string): Permission => ({ least, act });
const read = (act: string) => may('viewer', act);
const run = (act: string) => may('runner', act);
const edit = (act: string) => may('editor', act);
const administer = (act: string) => may('admin', act);

/**
 * Who may call each endpoint: decided here once, for the API, MCP's tools (each names the endpoint it does the
 * same as), the dashboard and the extension, which offers only what its key's role may do. Viewers read; runners
 * start, stop and run on their scope's profiles and answer help requests; editors change profiles, proxies,
 * webhooks and cookies; admins manage members and keys.
 */
export const PERMISSIONS: Record<EndpointName, Permission> = {
  getAccount: read('read the workspace'),
  listProfiles: read('list profiles'),
  listProfileTags: read('list profiles'),
  createProfile: edit('create profiles'),
  getProfile: read('read profiles'),
  updateProfile: edit('edit profiles'),
  cloneProfile: edit('clone profiles'),
  checkProfileIdentity: run('check profiles’ identity'),
  getProfileCookies: edit('export cookies'),
  getProfileCookieFile: edit('export cookies'),
  putProfileCookies: edit('import cookies'),
  deleteProfile: edit('delete profiles'),
  importProfiles: edit('import profiles'),
  exportProfiles: edit('export profiles'),
  bulkProfiles: run('act on profiles in bulk'),
  listProxies: read('list proxies'),
  createProxy: edit('create proxies'),
  pasteProxies: edit('create proxies'),
  checkAllProxies: run('check proxies'),
  getProxyCheckJob: read('read proxy checks'),
  replaceProxies: edit('replace proxies on profiles'),
  getProxy: read('read proxies'),
  updateProxy: edit('edit proxies'),
  deleteProxy: edit('delete proxies'),
  checkProxy: run('check proxies'),
  listSessions: read('list sessions'),
  getSession: read('read sessions'),
  getSessionThumbnail: read('watch sessions'),
  startSession: run('start sessions'),
  startSessionInLine: run('start sessions'),
  stopSession: run('stop sessions'),
  listSessionDownloads: read('list downloads'),
  getSessionDownload: run('fetch downloaded files'),
  runAutomation: run('run scripts'),
  getRun: read('read runs'),
  listRuns: read('list runs'),
  rerunRun: run('run scripts'),
  cancelRun: run('cancel runs'),
  getBatch: read('read batches'),
  listBatches: read('list batches'),
  pauseBatch: run('pause batches'),
  resumeBatch: run('resume batches'),
  cancelBatch: run('cancel batches'),
  retryBatch: run('run scripts'),
  exportBatch: read('export batches'),
  getArtifact: read('read run artifacts'),
  streamEvents: read('follow events'),
  createWebhook: edit('create webhooks'),
  listWebhooks: read('list webhooks'),
  deleteWebhook: edit('delete webhooks'),
  listWebhookDeliveries: read('read webhook deliveries'),
  listHelpRequests: read('list help requests'),
  getHelpRequest: read('read help requests'),
  answerHelpRequest: run('answer help requests'),
  takeHelpRequest: run('take over help requests'),
  createKey: administer('make keys'),
  listKeys: administer('list keys'),
  revokeKey: administer('revoke keys'),
  inviteMember: administer('invite members'),
  listMembers: read('list members'),
  updateMember: administer('change members’ roles or scopes'),
  removeMember: administer('remove members'),
  releaseProfile: administer('release profiles'),
  listProfileVersions: read('list saved states'),
  restoreProfileVersion: edit('restore saved states'),
  listAudit: administer('read the audit log'),
  getUsage: administer('read the usage per member and key'),
};

/** The endpoint each bulk action does the same as, whose permission it takes. */
export const BULK_ACTS: Record<BulkActionName, EndpointName> = {
  set_proxy: 'updateProfile',
  clear_proxy: 'updateProfile',
  add_tags: 'updateProfile',
  remove_tags: 'updateProfile',
  run: 'runAutomation',
  start: 'startSession',
  stop: 'stopSession',
  delete: 'deleteProfile',
  export_cookies: 'getProfileCookies',
};

const ARTICLE: Record<Role, string> = { owner: 'An', admin: 'An', editor: 'An', runner: 'A', viewer: 'A' };

/** Whether a role may call the endpoint. */
export function mayCall(role: Role, endpoint: EndpointName): boolean {
  return isAtLeast(role, PERMISSIONS[endpoint].least);
}

/** Why a role may not call the endpoint: "A runner may not delete profiles; that takes an editor or above." */
export function refusalOf(role: Role, endpoint: EndpointName): string {
  const { least, act } = PERMISSIONS[endpoint];
  return `${ARTICLE[role]} ${role} may not ${act}; that takes ${ARTICLE[least].toLowerCase()} ${least}${least === 'owner' ? '' : ' or above'}.`;
}
