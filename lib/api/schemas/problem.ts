import { z } from '../zod';

export const PROBLEM_CODES = [
  'unauthorized',
  'forbidden',
  'misdirected_request',
  'not_found',
  'method_not_allowed',
  'malformed_request',
  'headers_too_large',
  'request_timeout',
  'malformed_json',
  'unsupported_media_type',
  'payload_too_large',
  'validation_failed',
  'conflict',
  'profile_running',
  'session_exists',
  'session_not_running',
  'session_busy',
  'download_not_ready',
  'help_pending',
  'help_answered',
  'help_timed_out',
  'batch_paused',
  'batch_not_paused',
  'batch_finished',
  'profile_held',
  'profile_not_held',
  'proxy_in_use',
  'proxy_limit',
  'rate_limited',
  'idempotency_key_reused',
  'idempotency_in_flight',
  'browser_unavailable',
  'session_limit',
  'stream_limit',
  'help_limit',
  'bulk_busy',
  'at_capacity',
  'proxy_check_off',
  'page_failed',
  'internal',
] as const;
export type ProblemCode = (typeof PROBLEM_CODES)[number];

export const FieldError = z.object({ path: z.string(), message: z.string() });

/** RFC 9457 problem details. `code` is stable and machine-readable, and a string so that codes added later still parse. */
export const Problem = z.looseObject({
  type: z.optional(z.string()),
  title: z.optional(z.string()),
  status: z.optional(z.number()),
  detail: z.optional(z.string()),
  code: z.optional(z.string()),
  errors: z.optional(z.array(FieldError)),
  /** How many more field errors there were than `errors` lists (it lists at most 20). */
  errors_not_listed: z.optional(z.number()),
  session_id: z.optional(z.string()),
});

export type FieldError = z.infer<typeof FieldError>;
export type Problem = z.infer<typeof Problem>;
