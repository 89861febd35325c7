import type { QuotaSnapshot } from '../api/rate-limit';
import { RunCreate } from '../api/schemas/automation';
import { Id } from '../api/schemas/common';
import type { FieldError } from '../api/schemas/problem';
import type { Session } from '../api/schemas/sessions';
import { z } from '../api/zod';
import type { WatchedRun } from '../storage';

/** What the popup and the options page may ask the worker; the worker validates every message with this. */
export const WorkerRequest = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('session.start'), profileId: Id, headless: z.optional(z.boolean()) }),
  z.strictObject({ type: z.literal('session.stop'), profileId: Id }),
  z.strictObject({ type: z.literal('session.stopAll') }),
  z.strictObject({ type: z.literal('run.start'), run: RunCreate }),
  z.strictObject({ type: z.literal('watch.cancel'), runId: Id }),
  /** The popup opened: reconcile sessions; `seen` marks ended runs as looked at (clears the badge's mark). */
  z.strictObject({ type: z.literal('state.read'), seen: z.optional(z.boolean()) }),
]);

export type WorkerRequest = z.input<typeof WorkerRequest>;
export type ParsedRequest = z.output<typeof WorkerRequest>;
export type RequestType = WorkerRequest['type'];

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
}

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
