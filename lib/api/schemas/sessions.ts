import { z } from '../zod';
import { Id, listOf, PageQuery, Timestamp } from './common';

export const SessionStatus = z.enum(['starting', 'running', 'stopping', 'stopped', 'failed']);
export const StopReason = z.enum(['user', 'browser_exited', 'service_shutdown', 'profile_deleted']);

/** A running (or finished) browser for one profile. `cdp_url` is the ws:// DevTools address for connectOverCDP. */
export const Session = z.object({
  id: Id,
  profile_id: z.string(),
  status: SessionStatus,
  cdp_url: z.nullable(z.string()),
  headless: z.boolean(),
  started_at: Timestamp,
  stopped_at: z.nullable(Timestamp),
  stop_reason: z.nullable(StopReason),
  error: z.nullable(z.string()),
});

export const SessionStart = z.strictObject({ profile_id: Id, headless: z.optional(z.boolean()) });

/** DELETE /v1/sessions/stop takes one of these as query or as JSON body. */
export const SessionStop = z.strictObject({ session_id: z.optional(Id), profile_id: z.optional(Id) }).check(
  z.refine((body) => Boolean(body.session_id) !== Boolean(body.profile_id), {
    message: 'give exactly one of session_id or profile_id',
    path: ['session_id'],
  }),
);

export const SessionList = listOf(Session);
export const SessionListQuery = z.object({ ...PageQuery, status: z.optional(SessionStatus) });

export type Session = z.infer<typeof Session>;
export type SessionStatus = z.infer<typeof SessionStatus>;
export type SessionStart = z.input<typeof SessionStart>;
export type SessionStop = z.input<typeof SessionStop>;
export type SessionListQuery = z.input<typeof SessionListQuery>;
