import type { EndpointName } from '../../lib/api/endpoints';

/** What the OpenAPI document says of an endpoint: a one-line summary, and what else a caller should know. */
export interface EndpointDoc {
  summary: string;
  description?: string;
}

/**
 * The text of every endpoint of lib/api's table, by the table's names: a missing or extra entry is a type error.
 * Kept on the server, not in the table, so that the extension's bundles (which carry the table for the client)
 * do not carry the text.
 */
export const endpointDocs: { [N in EndpointName]: EndpointDoc } = {
  getAccount: { summary: 'The account of the key' },
  listProfiles: { summary: 'List profiles' },
  listProfileTags: {
    summary: 'List the tags of the profiles, with how many carry each',
    description:
      'Most used first, then A to Z. A key limited to tags sees the tags of the profiles in its scope.',
  },
  createProfile: { summary: 'Create a profile' },
  getProfile: { summary: 'Read one profile' },
  updateProfile: { summary: 'Change a profile (applies at its next start if it runs)' },
  cloneProfile: { summary: 'Copy a profile’s settings into a new profile, without its browser data' },
  checkProfileIdentity: {
    summary: 'Check the identity a profile’s browser shows',
    description:
      'Opens the profile’s browser on a page the service serves itself and compares every surface of its identity (page, frame, worker, headers) with what it claims, and its time zone and languages with the proxy’s exit.',
  },
  getProfileCookies: {
    summary: "A profile's cookies, running or not",
    description: 'JSON, or cookies.txt with ?format=netscape or Accept: text/plain.',
  },
  getProfileCookieFile: { summary: "A profile's cookies as a file (cookies.txt with ?format=netscape)" },
  putProfileCookies: {
    summary: 'Import cookies into a profile, running or not',
    description: 'A JSON array, or cookies.txt as text/plain; ?replace=true removes the others.',
  },
  deleteProfile: { summary: 'Delete a profile and its browser data' },
  releaseProfile: {
    summary: 'Free a profile someone holds (owner and admin)',
    description:
      'Stops its session, saving its browser data, and frees it for the next member; `reason` is kept in the audit log. A free profile is 409 `profile_not_held`.',
  },
  listProfileVersions: { summary: 'The last five saved states of a profile’s browser data, newest first' },
  restoreProfileVersion: {
    summary: 'Make a kept saved state the profile’s newest (editor and above, while nobody holds it)',
    description: 'Its next start restores that state. A held profile is 409 `profile_held`.',
  },
  bulkProfiles: {
    summary: 'One action on many profiles: proxy, tags, run, start, stop, delete, cookies',
    description:
      'The selection is `ids` or a `filter` of the list (q, tag, status), applied by the service. Answers one item per profile, in order: done, or the problem as the single endpoint would answer it. Ids that are not profiles of the account are not found. Each action has a most per request (10,000 for proxies and tags, 1,000 for run, start, stop and delete, 100 for cookies); a larger selection is refused whole. A run makes one batch.',
  },
  importProfiles: {
    summary: 'Create profiles from a sheet (CSV or NDJSON), each row answered',
    description:
      'text/csv with the header name,proxy,tags,notes (any order, name needed; tags split by ;, RFC 4180 quoting), or application/x-ndjson with one object a line; at most 10,000 rows and 4 MiB. Answers each row by its line: the profile made, or the row’s problem; an empty file, a broken quote, a wrong header or too many rows is refused whole (422) before anything is made. A row’s proxy uses the saved proxy with the same address and credentials, else one is saved. Profiles are written 50 to a transaction.',
  },
  exportProfiles: {
    summary: 'The list’s profiles as a sheet an import takes back (CSV or NDJSON), streamed',
    description:
      'The filter and order of GET /v1/profiles (q, tag, status, sort); ?format=csv (default) or ndjson. Proxies carry their passwords only with ?passwords=true. A CSV cell a spreadsheet would read as a formula starts with an apostrophe, which an import takes off again.',
  },
  listProxies: { summary: 'List proxy configurations' },
  createProxy: { summary: 'Create a proxy configuration' },
  pasteProxies: {
    summary: 'Save proxies from pasted lines, each answered in its place',
    description:
      'Up to 1,000 lines, each host:port, host:port:user:pass, user:pass@host:port or scheme://[user:pass@]host:port. A line that says the same as a saved proxy (scheme, host, port, user name and password) or as an earlier line is that proxy (`known`), not a second one; a line that is no proxy is refused in its place; the rest are saved. Beyond the plan’s cap on saved proxies (Free 1,000, Premium 10,000) nothing is saved: 409 `proxy_limit`.',
  },
  checkAllProxies: {
    summary: 'Check every saved proxy, as a job',
    description:
      'Checks every proxy the account has saved, a few at a time, each result kept as the proxy’s last check (a `proxy.updated` event). Answers the job at once; its progress is `GET /v1/proxies/checks/:id` and the `proxies.checking` event. While one runs, another POST answers that one.',
  },
  getProxyCheckJob: { summary: 'How far a check of every proxy is' },
  replaceProxies: {
    summary: 'Replace proxies on every profile that uses them',
    description:
      'Each `from` proxy is replaced by its `to` proxy on every profile of the account that uses it, in one transaction (`profile.updated` for each). Both must be saved proxies of the account (404 otherwise). The `from` proxies stay saved.',
  },
  getProxy: { summary: 'Read one proxy configuration' },
  updateProxy: { summary: 'Replace a proxy configuration' },
  deleteProxy: { summary: 'Delete a proxy configuration' },
  checkProxy: {
    summary: 'Whether the proxy works',
    description: 'Its exit IP (and time zone) through the operator’s PROXY_CHECK_URL, or why not.',
  },
  listSessions: { summary: 'List sessions' },
  getSession: { summary: 'Read one session' },
  getSessionThumbnail: {
    summary: 'A small recent picture of a running session’s active tab (image/jpeg, 320 px wide)',
    description:
      'Kept for 5 seconds. 409 when the session does not run; 503 when its browser gave no picture in time.',
  },
  startSession: {
    summary: 'Start a browser session for a profile',
    description:
      'No room (the plan’s sessions at once, or every machine’s browsers) is 503 or 429 at once; with `wait`, the start takes its place in the line for room instead, in order, and is answered 201 once it started within that many seconds, else 202 `waiting` (it stays in line and starts when room comes; `Location` is its profile, whose `session_id` says when).',
  },
  startSessionInLine: { summary: 'with `wait`, in line for room' },
  stopSession: { summary: 'Stop a browser session (safe to retry; never counted against the hourly limit)' },
  listSessionDownloads: {
    summary:
      "The files the session's browser downloaded (while its profile exists, the session stopped or not)",
  },
  getSessionDownload: {
    summary: "One downloaded file's bytes, as an attachment (Content-Disposition, nosniff)",
  },
  runAutomation: { summary: 'Queue an automation script' },
  getRun: { summary: 'Read one run (run_id), optionally long-polling' },
  listRuns: { summary: 'List runs (without run_id)' },
  rerunRun: { summary: 'Queue the same script on the same profile again' },
  getBatch: {
    summary: "A batch's summary: its runs counted by status",
    description:
      'A batch is a run on many profiles (POST /v1/profiles/bulk with action run). Each profile counts by its latest run in the batch; its runs are listed by GET /v1/automation/status?batch_id=, with status=failed for the failed.',
  },
  retryBatch: { summary: "Queue again the batch's failed runs, in the same batch" },
  listBatches: { summary: "The account's batches, newest first, each summed up" },
  pauseBatch: {
    summary: 'Pause a batch: its queued runs wait (those running go on); 409 if it is paused or finished',
  },
  resumeBatch: { summary: 'Resume a paused batch; 409 if it is not paused' },
  cancelBatch: {
    summary: "Cancel a batch's queued and running runs; 409 if it has finished",
  },
  exportBatch: {
    summary: "The outputs of a batch's runs, as CSV or JSON",
    description:
      'One row per profile (its latest run): run, profile, status, error, then a column per output name. A CSV cell that a spreadsheet would read as a formula starts with an apostrophe.',
  },
  cancelRun: { summary: 'Cancel a queued or running run' },
  getArtifact: { summary: 'A stored screenshot (image/png)' },
  streamEvents: {
    summary: "The account's events as Server-Sent Events",
    description:
      'Last-Event-ID resumes after the event it names. The same events come over a WebSocket too, the key as its first message.',
  },
  createWebhook: { summary: 'Send events to an address (the signing secret is shown once)' },
  listWebhooks: { summary: 'List webhooks' },
  deleteWebhook: { summary: 'Delete a webhook' },
  listWebhookDeliveries: { summary: 'A webhook’s deliveries: attempts and answers' },
  listHelpRequests: {
    summary: 'Requests for a person (status=open: those waiting for an answer)',
    description:
      'Made by an agent’s request_human tool or a run’s ask_human step; each names the session, profile and tab that asked.',
  },
  getHelpRequest: { summary: 'Read one request for a person' },
  takeHelpRequest: {
    summary: 'Take a help request over: you hold its profile while you act, until the request ends',
    description:
      'The profile’s lease passes from the agent to you (its session goes on); the answer, or the request’s end, gives it back. Another person’s take-over is 409 `profile_held`.',
  },
  answerHelpRequest: {
    summary: 'Answer a request for a person: done, a typed answer, a choice, or declined',
    description:
      'The agent’s call or the run’s step gets the answer at once, on whichever process waits. A second answer is 409; so is one after expires_at, which says the request timed out.',
  },
  createKey: {
    summary: 'Make a key for an agent: a member named by the key, with a role and a scope (owner and admin)',
    description:
      'The key is in this answer only. A role above the maker’s is 403; the scope’s tags name the profiles it sees.',
  },
  listKeys: { summary: 'The workspace’s keys, each with its member’s role and scope (never the key)' },
  revokeKey: { summary: 'Revoke a key: its next request is 401' },
  inviteMember: {
    summary: 'Invite a person by email: a one-time link, valid 7 days, that makes them a member',
    description: 'The link is in this answer only; the person opens it on the dashboard and sets a password.',
  },
  listMembers: { summary: 'The workspace’s members: people and agents, with their roles and scopes' },
  updateMember: { summary: 'Change a member’s role or scope; their keys follow at once' },
  removeMember: { summary: 'Remove a member: their keys are revoked and their sign-ins end' },
  listAudit: {
    summary: 'Who did what, and when (owner and admin)',
    description:
      'Acts on profiles and the workspace, newest first, kept 90 days: `profile_id`, `member` (a member’s or key’s id) and `since` narrow it.',
  },
  getUsage: {
    summary: 'The last hour’s requests against the plan, per member or per key (owner and admin)',
    description:
      '`by=member` (the default) adds up each member’s keys; `by=key` lists each key with its member.',
  },
};
