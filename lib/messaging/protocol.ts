import type { ApiClient } from '../api/client';
import type { RunCreate } from '../api/inputs/automation';
import type { QuotaSnapshot } from '../api/rate-limit';
import type { Account } from '../api/schemas/account';
import { Id } from '../api/schemas/common';
import type { FieldError } from '../api/schemas/problem';
import type { Session } from '../api/schemas/sessions';
import { z } from '../api/zod';
import type { WatchedRun } from '../storage';

/** The service calls the popup and options page make through the worker (which holds the client). */
export const SERVICE_CALLS = [
  'listProfiles',
  'createProfile',
  'getProfile',
  'deleteProfile',
  'listProxies',
  'createProxy',
  'getProxy',
  'updateProxy',
  'deleteProxy',
  'listSessions',
  'listRuns',
  'getRun',
  'cancelRun',
] as const;
export type ServiceCall = (typeof SERVICE_CALLS)[number];

/**
 * A run to start, checked as an envelope only: the service validates the script itself and answers 422 with
 * the step at fault, which reaches the popup as field errors. (The popup checks it against `Script` as the
 * person types; the worker need not carry those schemas.)
 */
const RunEnvelope = z
  .looseObject({
    profile_id: z.optional(Id),
    session_id: z.optional(Id),
    script: z.looseObject({ steps: z.array(z.looseObject({ action: z.string() })).check(z.minLength(1)) }),
    name: z.optional(z.string()),
  })
  .check(
    z.refine((run) => Boolean(run.profile_id) !== Boolean(run.session_id), {
      message: 'give exactly one of profile_id or session_id',
      path: ['profile_id'],
    }),
  );

/**
 * What the popup and the options page may ask the worker: one schema per message type. The worker picks the
 * schema by `type` and validates the whole message with it: a lookup instead of a discriminated union of
 * literals keeps that machinery out of the worker's bundle, whose size budget is tight.
 */
export const WorkerRequests = {
  'session.start': z.strictObject({
    type: z.string(),
    profileId: Id,
    headless: z.optional(z.boolean()),
  }),
  'session.stop': z.strictObject({ type: z.string(), profileId: Id }),
  'session.stopAll': z.strictObject({ type: z.string() }),
  'run.start': z.strictObject({ type: z.string(), run: RunEnvelope }),
  'watch.cancel': z.strictObject({ type: z.string(), runId: Id }),
  /** The popup opened: reconcile sessions; `seen` marks ended runs as looked at (clears the badge's mark). */
  'state.read': z.strictObject({ type: z.string(), seen: z.optional(z.boolean()) }),
  /** One call of the typed client with the stored connection, e.g. `{ call: 'listProfiles', args: [{ q }] }`. */
  'service.call': z.strictObject({
    type: z.string(),
    call: z.enum(SERVICE_CALLS),
    args: z.array(z.unknown()).check(z.maxLength(3)),
  }),
  /** Checks an address and key before they are saved: answers the account and the quota left. */
  'service.check': z.strictObject({
    type: z.string(),
    serviceUrl: z.string(),
    apiKey: z.string(),
  }),
};

export type RequestType = keyof typeof WorkerRequests;
type Schemas = typeof WorkerRequests;
/** A message as its schema gives it, with `type` narrowed to the key its schema was picked by. */
export type ParsedRequest = { [K in RequestType]: z.output<Schemas[K]> & { type: K } }[RequestType];
/** As sent: a run is a full `RunCreate`, the one thing the schemas above check only loosely. */
export type WorkerRequest =
  | { [K in Exclude<RequestType, 'run.start'>]: z.input<Schemas[K]> & { type: K } }[Exclude<
      RequestType,
      'run.start'
    >]
  | { type: 'run.start'; run: RunCreate };

const RequestTypeOnly = z.object({ type: z.enum(Object.keys(WorkerRequests) as RequestType[]) });

/** Validates a message against the schema its `type` names; an unknown type is an issue at `type`. */
export function parseRequest(
  message: unknown,
): { success: true; data: ParsedRequest } | { success: false; issues: z.core.$ZodIssue[] } {
  const known = z.safeParse(RequestTypeOnly, message);
  if (!known.success) return { success: false, issues: known.error.issues };
  const parsed = z.safeParse(WorkerRequests[known.data.type], message);
  // The schema was picked by `type`, so the message is of that type.
  if (parsed.success) return { success: true, data: parsed.data as ParsedRequest };
  return { success: false, issues: parsed.error.issues };
}

export interface StopAllResult {
  stopped: Session[];
  /** Sessions that could not be stopped, with the reason as a sentence. */
  failed: { profileId: string; message: string }[];
}

export interface WorkerState {
  /** Sessions starting or running, reconciled with the service when it could be reached. */
  sessions: Session[];
  runs: WatchedRun[];
  quota: QuotaSnapshot | null;
  /** Why the sessions could not be refreshed (they are then the last known), or null. */
  error: string | null;
}

export interface WorkerReplies {
  'session.start': Session;
  'session.stop': Session;
  'session.stopAll': StopAllResult;
  'run.start': WatchedRun;
  'watch.cancel': { cancelled: boolean };
  'state.read': WorkerState;
  'service.call': unknown;
  'service.check': { account: Account; quota: QuotaSnapshot | null };
}

/** What a service call answers, as the typed client gives it. */
export type ServiceResult<N extends ServiceCall> = Awaited<ReturnType<ApiClient[N]>>;

export interface WorkerError {
  /** A problem code from the service, or `no_key`, `invalid_message`, `worker_unavailable`, `internal`. */
  code: string;
  /** A sentence fit to show. */
  message: string;
  /** HTTP status when the service answered, else 0. */
  status: number;
  retryAfter: number | null;
  fieldErrors: FieldError[];
}

export type Reply<T> = { ok: true; value: T } | { ok: false; error: WorkerError };

/** The popup's views that the worker opens (from a notification), as location hashes. */
export const routes = {
  home: '#/',
  settings: '#/settings',
  run: (id: string) => `#/runs/${encodeURIComponent(id)}`,
  profile: (id: string) => `#/profiles/${encodeURIComponent(id)}`,
};

export function failure(code: string, message: string): { ok: false; error: WorkerError } {
  return { ok: false, error: { code, message, status: 0, retryAfter: null, fieldErrors: [] } };
}
