import { listedErrors } from '../../lib/api/issues';
import type { FieldError, ProblemCode } from '../../lib/api/schemas/problem';
import { boundedText } from '../core/bounded-text';

export interface ProblemInit {
  status: number;
  code: ProblemCode;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extra members, e.g. `session_id` on `session_exists`. */
  extensions?: Record<string, unknown>;
}

const TITLES: Record<ProblemCode, string> = {
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  misdirected_request: 'Misdirected request',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  malformed_request: 'Malformed request',
  headers_too_large: 'Request headers too large',
  request_timeout: 'Request timeout',
  malformed_json: 'Malformed JSON',
  unsupported_media_type: 'Unsupported media type',
  payload_too_large: 'Payload too large',
  validation_failed: 'Validation failed',
  conflict: 'Conflict',
  profile_running: 'Profile is running',
  session_exists: 'Session already exists',
  session_not_running: 'Session is not running',
  session_busy: 'Session is starting or stopping',
  download_not_ready: 'Download not finished',
  help_pending: 'The tab already waits for a person',
  help_answered: 'Already answered',
  help_timed_out: 'The request timed out',
  batch_paused: 'Batch is paused',
  batch_not_paused: 'Batch is not paused',
  batch_finished: 'Batch has finished',
  profile_held: 'Profile held by another member',
  profile_not_held: 'Profile not held',
  proxy_in_use: 'Proxy is in use',
  proxy_limit: 'Too many saved proxies',
  rate_limited: 'Too many requests',
  idempotency_key_reused: 'Idempotency key reused',
  idempotency_in_flight: 'Idempotent request in flight',
  browser_unavailable: 'Browser unavailable',
  session_limit: 'Session limit reached',
  stream_limit: 'Event stream limit reached',
  help_limit: 'Too many open requests for a person',
  bulk_busy: 'A bulk request is still being done',
  at_capacity: 'Service at capacity',
  proxy_check_off: 'Proxy checks are off',
  page_failed: 'The page did not do it',
  internal: 'Internal error',
};

/** Thrown anywhere in a request; the app's error handler answers it as problem details. */
export class ProblemError extends Error {
  constructor(readonly problem: ProblemInit) {
    super(problem.detail);
    this.name = 'ProblemError';
  }
}

/** An RFC 9457 `application/problem+json` response with the stable `code`. */
export function problemResponse(problem: ProblemInit): Response {
  return new Response(problemBody(problem), {
    status: problem.status,
    headers: { 'Content-Type': 'application/problem+json', ...problem.headers },
  });
}

/** The JSON text of a problem-details body; its sentences are cut to a few KB, as they may quote input. */
export function problemBody({ status, code, detail, errors, extensions }: ProblemInit): string {
  return JSON.stringify({
    type: `urn:profile-pilot:problem:${code}`,
    title: TITLES[code],
    status,
    detail: boundedText(detail),
    code,
    ...(errors ? fieldErrors(errors) : {}),
    ...extensions,
  });
}

/** The first field errors, each sentence cut, and how many more there were. */
function fieldErrors(errors: FieldError[]): { errors: FieldError[]; errors_not_listed?: number } {
  const { listed, notListed } = listedErrors(errors);
  return {
    errors: listed.map((error) => ({ path: boundedText(error.path), message: boundedText(error.message) })),
    ...(notListed > 0 ? { errors_not_listed: notListed } : {}),
  };
}

export function validationProblem(errors: FieldError[], detail: string): ProblemError {
  return new ProblemError({ status: 422, code: 'validation_failed', detail, errors });
}
