import { z } from '../zod';
import { Id, listOf, Timestamp } from './common';

/**
 * How a request ended: the person's answer, nobody answered in time, or its session ended first (withdrawn).
 */
export const HelpOutcome = z.enum(['done', 'answer', 'choice', 'declined', 'timed_out', 'withdrawn']);

/**
 * A request for a person, made by an agent (`request_human`) or a run (`ask_human`) on a tab of a running
 * session; open until answered or until `expires_at`.
 */
export const HelpRequest = z.object({
  id: Id,
  session_id: Id,
  profile_id: Id,
  /** The profile's name when the request was made. */
  profile_name: z.string(),
  /** The DevTools target id of the tab that asked: the live view opens on it. */
  tab_id: z.string(),
  /** The run whose `ask_human` step asked, or null for an agent. */
  run_id: z.nullable(Id),
  reason: z.string(),
  question: z.nullable(z.string()),
  choices: z.array(z.string()),
  status: z.enum(['open', 'closed']),
  outcome: z.nullable(HelpOutcome),
  /** The typed answer (outcome `answer`). */
  text: z.nullable(z.string()),
  /** The chosen answer (outcome `choice`). */
  choice: z.nullable(z.string()),
  created_at: Timestamp,
  expires_at: Timestamp,
  answered_at: z.nullable(Timestamp),
  /**
   * The person who took the request over (`POST /v1/help-requests/:id/take`): they hold the profile until the request
   * ends, then it goes back to the agent. Absent from a service older than workspaces.
   */
  taken_by: z.optional(z.nullable(z.object({ id: z.string(), name: z.string() }))),
});

export const HelpRequestList = listOf(HelpRequest);

export type HelpRequest = z.infer<typeof HelpRequest>;
export type HelpOutcome = z.infer<typeof HelpOutcome>;
