import { z } from '../zod';
import { Id, listOf, Timestamp } from './common';

export const SessionStatus = z.enum(['starting', 'running', 'stopping', 'stopped', 'failed']);

/**
 * Why a session stopped: `user` asked for it; the service stopped a session it had opened itself once its work
 * was done: `identity_check`, `cookies` (an import or export into a stopped profile), `run_finished`. `released`: an
 * owner or admin freed the profile; `lease_lost`: its node stopped renewing the profile's lease, and another took it.
 */
export const StopReason = z.enum([
  'user',
  'identity_check',
  'cookies',
  'run_finished',
  'browser_exited',
  'service_shutdown',
  'profile_deleted',
  'idle',
  'node_lost',
  'released',
  'lease_lost',
]);

/** What a running session shows: its active tab's title and address (cut to 200 and 500 characters). */
export const CurrentPage = z.object({ title: z.string(), url: z.string() });
export type CurrentPage = z.infer<typeof CurrentPage>;

/**
 * A running (or finished) browser for one profile. `cdp_url` is its DevTools endpoint through the service, for
 * connectOverCDP: it carries a signed token, expires, and stops working when the session stops. `live_view_url`
 * is a page that shows the session's active tab live and sends the viewer's mouse and keyboard to it;
 * `live_view_readonly_url` shows it without control. Both are signed the same way; null unless it runs.
 */
export const Session = z.object({
  id: Id,
  profile_id: z.string(),
  /** Its profile's name now; null once the profile is deleted, absent from events recorded before it existed. */
  profile_name: z.optional(z.nullable(z.string())),
  status: SessionStatus,
  cdp_url: z.nullable(z.string()),
  /** Absent from events recorded before live view existed. */
  live_view_url: z.optional(z.nullable(z.string())),
  live_view_readonly_url: z.optional(z.nullable(z.string())),
  /**
   * The tab an agent or a run used last (else the first) while it runs; null when it does not run, or its
   * browser did not answer in time; absent from events.
   */
  current_page: z.optional(z.nullable(CurrentPage)),
  headless: z.boolean(),
  started_at: Timestamp,
  stopped_at: z.nullable(Timestamp),
  stop_reason: z.nullable(StopReason),
  error: z.nullable(z.string()),
});

export const SessionList = listOf(Session);

export type Session = z.infer<typeof Session>;

export type SessionStatus = z.infer<typeof SessionStatus>;

/**
 * POST /v1/sessions/start with `wait`, when no room came within it (202): the start waits in line and its session
 * starts once there is room; its profile's `session_id` (or a `session.started` event) tells when.
 */
export const SessionStartWaiting = z.object({
  profile_id: z.string(),
  status: z.literal('waiting'),
  detail: z.string(),
});
export type SessionStartWaiting = z.infer<typeof SessionStartWaiting>;

/** A session start's answer: its session (201), or its place in line (202). */
export const SessionStartAnswer = z.union([Session, SessionStartWaiting]);
export type SessionStartAnswer = z.infer<typeof SessionStartAnswer>;
