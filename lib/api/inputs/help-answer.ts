import { z } from '../zod';
import { Choice } from './help-requests';

/* Apart from the asking fields, which run scripts carry (and with them the popup), so the popup does not carry it. */

/** POST /v1/help-requests/:id/answer: done, a typed answer, one of the choices, or declined. */
export const HelpAnswer = z
  .strictObject({
    outcome: z.enum(['done', 'answer', 'choice', 'declined']),
    text: z.optional(z.string().check(z.maxLength(2000, 'must be at most 2000 characters'))),
    choice: z.optional(Choice),
  })
  .check(
    z.refine((body) => (body.outcome === 'answer') === (body.text !== undefined), {
      message: 'give text with outcome answer, and only then',
      path: ['text'],
    }),
    z.refine((body) => (body.outcome === 'choice') === (body.choice !== undefined), {
      message: 'give choice with outcome choice, and only then',
      path: ['choice'],
    }),
  );

export type HelpAnswer = z.infer<typeof HelpAnswer>;
