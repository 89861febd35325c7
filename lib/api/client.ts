import type { Endpoint } from './endpoint';
import { type EndpointName, endpoints } from './endpoints';
import { ApiError, httpError, invalidResponseError, noAnswerError, unexpectedShape } from './errors';
import { type QuotaSnapshot, readQuota, readRetryAfter } from './rate-limit';
import type { requests } from './requests';
import { backoffDelay, isTransient, MAX_RETRIES } from './retry';
import { SHEET_TYPES, type SheetFormat } from './sheets';
import { z } from './zod';

export interface ClientOptions {
  /** Where the service answers, e.g. `http://127.0.0.1:8787`. */
  baseUrl: string;
  apiKey: string;
  fetch: typeof fetch;
  /** Receives the quota after every answer, errors and 429 included. */
  onQuota?: (quota: QuotaSnapshot) => void;
  /** Time one attempt may take; 15 s unless given. */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface PostOptions extends CallOptions {
  /** Give the key of an earlier attempt to repeat it safely; a fresh one is made otherwise. */
  idempotencyKey?: string;
}

export interface RunPoll {
  /** Seconds (0–25) the service may hold the answer until the run changes. */
  wait?: number;
  after_version?: number;
  /** Hold the answer until the run has finished (or `wait` ends), whatever changes before. */
  until?: 'finished';
}

const DEFAULT_TIMEOUT_MS = 15_000;
const LONG_POLL_MARGIN_MS = 5_000;
// Chrome may end an MV3 worker whose fetch runs for 30 s.
const LONG_POLL_CAP_MS = 29_000;

type Table = typeof endpoints;
type Schema = z.core.$ZodType;
type Requests = typeof requests;
type RequestOf<N extends EndpointName> = N extends keyof Requests ? Requests[N] : object;
type BodyOf<N extends EndpointName> =
  RequestOf<N> extends { body: infer S extends Schema } ? z.input<S> : never;
/** Query parameters as callers give them: numbers where the schema coerces one from the query string. */
type QueryOf<N extends EndpointName> =
  RequestOf<N> extends { query: infer S extends Schema }
    ? { [K in keyof z.input<S>]: unknown extends z.input<S>[K] ? number : z.input<S>[K] }
    : never;
type ResultOf<N extends EndpointName> = Table[N] extends { binary: true }
  ? Blob
  : Table[N] extends { response: infer S extends Schema }
    ? z.output<S>
    : undefined;

interface Call {
  params?: string[];
  query?: object;
  body?: unknown;
  /** The type of a text body, `text/plain` unless given. */
  contentType?: string;
  timeoutMs?: number;
}

/** A typed client for every endpoint of the table. Browser-free: the key, the address and `fetch` come in. */
export function createClient(options: ClientOptions) {
  const request = requester(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const longPollTimeout = (wait = 0) =>
    Math.min(LONG_POLL_CAP_MS, Math.max(timeoutMs, wait * 1000 + LONG_POLL_MARGIN_MS));

  return {
    getAccount: (o?: CallOptions) => request('getAccount', {}, o),

    listProfiles: (query?: QueryOf<'listProfiles'>, o?: CallOptions) => request('listProfiles', { query }, o),
    listProfileTags: (query?: QueryOf<'listProfileTags'>, o?: CallOptions) =>
      request('listProfileTags', { query }, o),
    createProfile: (body: BodyOf<'createProfile'>, o?: PostOptions) => request('createProfile', { body }, o),
    getProfile: (id: string, o?: CallOptions) => request('getProfile', { params: [id] }, o),
    updateProfile: (id: string, body: BodyOf<'updateProfile'>, o?: CallOptions) =>
      request('updateProfile', { params: [id], body }, o),
    checkProfileIdentity: (id: string, o?: PostOptions) =>
      request('checkProfileIdentity', { params: [id], timeoutMs: 60_000 }, o),
    getProfileCookies: (id: string, o?: CallOptions) => request('getProfileCookies', { params: [id] }, o),
    getProfileCookieFile: (id: string, format: 'json' | 'netscape', o?: CallOptions) =>
      request('getProfileCookieFile', { params: [id], query: { format } }, o),
    /** A JSON array of cookies, or the text of a cookies.txt. */
    putProfileCookies: (
      id: string,
      cookies: BodyOf<'putProfileCookies'> | string,
      replace = false,
      o?: CallOptions,
    ) =>
      request('putProfileCookies', { params: [id], body: cookies, query: { replace: String(replace) } }, o),
    cloneProfile: (id: string, body: BodyOf<'cloneProfile'> = {}, o?: PostOptions) =>
      request('cloneProfile', { params: [id], body }, o),
    releaseProfile: (id: string, body: BodyOf<'releaseProfile'>, o?: CallOptions) =>
      request('releaseProfile', { params: [id], body }, o),
    listProfileVersions: (id: string, o?: CallOptions) => request('listProfileVersions', { params: [id] }, o),
    restoreProfileVersion: (id: string, version: number, o?: CallOptions) =>
      request('restoreProfileVersion', { params: [id, String(version)] }, o),
    listAudit: (query?: QueryOf<'listAudit'>, o?: CallOptions) => request('listAudit', { query }, o),
    getUsage: (query?: QueryOf<'getUsage'>, o?: CallOptions) => request('getUsage', { query }, o),
    deleteProfile: (id: string, { force }: { force?: boolean } = {}, o?: CallOptions) =>
      request('deleteProfile', { params: [id], query: { force: force ? 'true' : undefined } }, o),
    /** One action on many profiles; starts and cookies take a while each, so the answer may take a minute. */
    bulkProfiles: (body: BodyOf<'bulkProfiles'>, o?: PostOptions) =>
      request('bulkProfiles', { body, timeoutMs: 60_000 }, o),
    /** A sheet's text as CSV (header name,proxy,tags,notes) or NDJSON; 10,000 rows may take a minute. */
    importProfiles: (sheet: string, format: SheetFormat, o?: PostOptions) =>
      request('importProfiles', { body: sheet, contentType: SHEET_TYPES[format], timeoutMs: 120_000 }, o),
    exportProfiles: (query: QueryOf<'exportProfiles'>, o?: CallOptions) =>
      request('exportProfiles', { query }, o),

    listProxies: (query?: QueryOf<'listProxies'>, o?: CallOptions) => request('listProxies', { query }, o),
    createProxy: (body: BodyOf<'createProxy'>, o?: PostOptions) => request('createProxy', { body }, o),
    /** Pasted lines saved as proxies, each answered in its place; one already saved is reused. */
    pasteProxies: (lines: string[], o?: PostOptions) => request('pasteProxies', { body: { lines } }, o),
    /** Starts checking every saved proxy (or answers the check already under way). */
    checkAllProxies: (o?: PostOptions) => request('checkAllProxies', {}, o),
    getProxyCheckJob: (id: string, o?: CallOptions) => request('getProxyCheckJob', { params: [id] }, o),
    replaceProxies: (body: BodyOf<'replaceProxies'>, o?: PostOptions) =>
      request('replaceProxies', { body }, o),
    getProxy: (id: string, o?: CallOptions) => request('getProxy', { params: [id] }, o),
    updateProxy: (id: string, body: BodyOf<'updateProxy'>, o?: CallOptions) =>
      request('updateProxy', { params: [id], body }, o),
    deleteProxy: (id: string, o?: CallOptions) => request('deleteProxy', { params: [id] }, o),
    checkProxy: (id: string, o?: PostOptions) => request('checkProxy', { params: [id] }, o),

    listSessions: (query?: QueryOf<'listSessions'>, o?: CallOptions) => request('listSessions', { query }, o),
    getSession: (id: string, o?: CallOptions) => request('getSession', { params: [id] }, o),
    getSessionThumbnail: (id: string, o?: CallOptions) => request('getSessionThumbnail', { params: [id] }, o),
    startSession: (body: BodyOf<'startSession'>, o?: PostOptions) => request('startSession', { body }, o),
    /** A start that, with no room now, waits in line for it up to `wait` seconds (202 while it still waits). */
    startSessionInLine: (body: BodyOf<'startSessionInLine'>, o?: PostOptions) =>
      request('startSessionInLine', { body, timeoutMs: (body.wait + 30) * 1000 }, o),
    stopSession: (selector: QueryOf<'stopSession'>, o?: CallOptions) =>
      request('stopSession', { query: selector }, o),

    runAutomation: (body: BodyOf<'runAutomation'>, o?: PostOptions) => request('runAutomation', { body }, o),
    getRun: (runId: string, poll: RunPoll = {}, o?: CallOptions) =>
      request('getRun', { query: { run_id: runId, ...poll }, timeoutMs: longPollTimeout(poll.wait) }, o),
    listRuns: (query?: Omit<QueryOf<'listRuns'>, keyof RunPoll | 'run_id'>, o?: CallOptions) =>
      request('listRuns', { query }, o),
    rerunRun: (runId: string, o?: PostOptions) => request('rerunRun', { params: [runId] }, o),
    cancelRun: (runId: string, o?: PostOptions) => request('cancelRun', { params: [runId] }, o),
    listBatches: (query?: QueryOf<'listBatches'>, o?: CallOptions) => request('listBatches', { query }, o),
    getBatch: (id: string, o?: CallOptions) => request('getBatch', { params: [id] }, o),
    pauseBatch: (id: string, o?: PostOptions) => request('pauseBatch', { params: [id] }, o),
    resumeBatch: (id: string, o?: PostOptions) => request('resumeBatch', { params: [id] }, o),
    cancelBatch: (id: string, o?: PostOptions) => request('cancelBatch', { params: [id] }, o),
    retryBatch: (id: string, o?: PostOptions) => request('retryBatch', { params: [id] }, o),
    exportBatch: (id: string, format: 'csv' | 'json', o?: CallOptions) =>
      request('exportBatch', { params: [id], query: { format } }, o),
    getArtifact: (runId: string, name: string, o?: CallOptions) =>
      request('getArtifact', { params: [runId, name] }, o),

    listHelpRequests: (query?: QueryOf<'listHelpRequests'>, o?: CallOptions) =>
      request('listHelpRequests', { query }, o),
    getHelpRequest: (id: string, o?: CallOptions) => request('getHelpRequest', { params: [id] }, o),
    answerHelpRequest: (id: string, body: BodyOf<'answerHelpRequest'>, o?: CallOptions) =>
      request('answerHelpRequest', { params: [id], body }, o),
    /** The person takes the request over: they hold its profile until the request ends. */
    takeHelpRequest: (id: string, o?: CallOptions) => request('takeHelpRequest', { params: [id] }, o),
  };
}

export type ApiClient = ReturnType<typeof createClient>;

function requester({
  baseUrl,
  apiKey,
  // Kept apart from `options`: a browser's fetch called as a method of another object throws "Illegal invocation".
  fetch: send,
  onQuota,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random = Math.random,
  now = Date.now,
}: ClientOptions) {
  const origin = baseUrl.replace(/\/+$/, '');

  async function attempt(name: EndpointName, endpoint: Endpoint, url: string, init: RequestInit, ms: number) {
    const label = `${endpoint.method} ${endpoint.path}`;
    const { response, payload } = await exchange(url, init, ms, label, endpoint.binary === true);
    onQuota?.(readQuota(response.headers, now()));
    if (!response.ok) {
      const retryAfter = readRetryAfter(response.headers.get('Retry-After'), now());
      throw httpError(name, label, response.status, String(payload), retryAfter);
    }
    if (endpoint.binary || !endpoint.response) return endpoint.binary ? payload : undefined;
    let json: unknown;
    try {
      json = JSON.parse(String(payload));
    } catch {
      throw invalidResponseError(label, response.status, 'answered with something that is not JSON');
    }
    // A deployment may answer a list with a bare array.
    if (Array.isArray(json) && name.startsWith('list')) json = { data: json, next_cursor: null };
    const parsed = z.safeParse(endpoint.response, json);
    if (!parsed.success)
      throw invalidResponseError(label, response.status, unexpectedShape(parsed.error.issues));
    return parsed.data;
  }

  /** One fetch, body included, within `ms`; every way of getting no answer becomes an ApiError. */
  async function exchange(url: string, init: RequestInit, ms: number, label: string, binary: boolean) {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), ms);
    const signal = init.signal ? AbortSignal.any([init.signal, timer.signal]) : timer.signal;
    try {
      // Also stops a retry whose caller gave up during the backoff.
      signal.throwIfAborted();
      const response = await send(url, { ...init, signal });
      return { response, payload: binary && response.ok ? await response.blob() : await response.text() };
    } catch (cause) {
      const code = timer.signal.aborted ? 'timeout' : init.signal?.aborted ? 'aborted' : 'network_error';
      throw noAnswerError(label, code, origin, cause);
    } finally {
      clearTimeout(timeout);
    }
  }

  return async function request<N extends EndpointName>(
    name: N,
    call: Call,
    options: PostOptions = {},
  ): Promise<ResultOf<N>> {
    const endpoint: Endpoint = endpoints[name];
    const headers: Record<string, string> = {
      Authorization: `Bearer ${apiKey}`,
      Accept: endpoint.binary ? '*/*' : 'application/json',
    };
    // A string body is text as it is (a cookies.txt), anything else JSON.
    const text = typeof call.body === 'string';
    if (call.body !== undefined)
      headers['Content-Type'] = text ? (call.contentType ?? 'text/plain') : 'application/json';
    // One key for every attempt, so that the service replays a create it already did instead of repeating it.
    if (endpoint.idempotent) headers['Idempotency-Key'] = options.idempotencyKey ?? crypto.randomUUID();
    const init: RequestInit = {
      method: endpoint.method,
      headers,
      body: call.body === undefined || text ? (call.body as string | undefined) : JSON.stringify(call.body),
      signal: options.signal,
    };
    const url = buildUrl(origin, endpoint.path, call.params ?? [], call.query ?? {});
    const ms = options.timeoutMs ?? call.timeoutMs ?? timeoutMs;
    for (let retry = 0; ; retry++) {
      try {
        return (await attempt(name, endpoint, url, init, ms)) as ResultOf<N>;
      } catch (error) {
        if (!(error instanceof ApiError) || !isTransient(error) || retry >= MAX_RETRIES) throw error;
        await sleep(backoffDelay(retry, random));
      }
    }
  };
}

function buildUrl(origin: string, path: string, params: string[], query: object): string {
  let next = 0;
  const filled = path.replace(/:\w+/g, () => encodeURIComponent(params[next++] ?? ''));
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const text = search.toString();
  return `${origin}${filled}${text ? `?${text}` : ''}`;
}
