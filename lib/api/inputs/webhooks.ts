import { EVENT_TYPES } from '../schemas/events';
import { z } from '../zod';
import { openableUrl } from './common';

/** POST /v1/webhooks: where to send which events. Whether the address may be used is the service's to say. */
export const WebhookCreate = z.strictObject({
  url: z.string().check(
    z.maxLength(2000, 'must be at most 2000 characters'),
    z.refine((text) => /^https?:\/\/[^\s]+$/i.test(text), 'must be an http(s) address'),
    openableUrl,
  ),
  event_types: z
    .array(z.enum(EVENT_TYPES))
    .check(z.minLength(1, 'name at least one event type'), z.maxLength(EVENT_TYPES.length)),
});

export type WebhookCreate = z.input<typeof WebhookCreate>;
