import { Id } from '../schemas/common';
import { z } from '../zod';

export const SessionStart = z.strictObject({ profile_id: Id, headless: z.optional(z.boolean()) });

/** DELETE /v1/sessions/stop takes one of these as query or as JSON body. */
export const SessionStop = z.strictObject({ session_id: z.optional(Id), profile_id: z.optional(Id) }).check(
  z.refine((body) => Boolean(body.session_id) !== Boolean(body.profile_id), {
    message: 'give exactly one of session_id or profile_id',
    path: ['session_id'],
  }),
);

export type SessionStart = z.input<typeof SessionStart>;

export type SessionStop = z.input<typeof SessionStop>;
