import { Id } from '../schemas/common';
import { z } from '../zod';

/**
 * POST /v1/sessions/start. `wait` (seconds, 1–25): with no room now, the start takes its place in the line for
 * room and the answer is held that long for it; without it, no room is refused at once (503 or 429).
 */
const WaitSeconds = z.int().check(z.minimum(1, 'must be at least 1'), z.maximum(25, 'must be at most 25'));

export const SessionStart = z.strictObject({
  profile_id: Id,
  headless: z.optional(z.boolean()),
  wait: z.optional(WaitSeconds),
});

/** DELETE /v1/sessions/stop takes one of these as query or as JSON body. */
export const SessionStop = z.strictObject({ session_id: z.optional(Id), profile_id: z.optional(Id) }).check(
  z.refine((body) => Boolean(body.session_id) !== Boolean(body.profile_id), {
    message: 'give exactly one of session_id or profile_id',
    path: ['session_id'],
  }),
);

export type SessionStart = z.input<typeof SessionStart>;

/** The same, `wait` given: what the client's startSessionInLine sends. */
export const SessionStartInLine = z.strictObject({
  ...SessionStart.shape,
  wait: WaitSeconds,
});

export type SessionStop = z.input<typeof SessionStop>;
