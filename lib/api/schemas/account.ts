import { z } from '../zod';
import { Timestamp } from './common';

export const Plan = z.enum(['free', 'premium', 'enterprise']);

/**
 * GET /v1/account: who the key belongs to; hourly_limit is null for an unlimited plan; session_limit is how many
 * sessions the plan may hold at once.
 */
export const Account = z.object({
  id: z.string(),
  name: z.string(),
  plan: Plan,
  hourly_limit: z.nullable(z.number()),
  session_limit: z.number(),
  key_prefix: z.string(),
  created_at: Timestamp,
});

export type Plan = z.infer<typeof Plan>;
export type Account = z.infer<typeof Account>;
