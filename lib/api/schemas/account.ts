import { z } from '../zod';
import { Timestamp } from './common';
import { Role, Scope } from './workspace';

export const Plan = z.enum(['free', 'premium', 'enterprise']);

/**
 * GET /v1/account: the workspace the key belongs to, and the member the key acts as with its role and scope;
 * hourly_limit is null for an unlimited plan; session_limit is how many sessions the plan may hold at once.
 */
export const Account = z.object({
  id: z.string(),
  name: z.string(),
  plan: Plan,
  hourly_limit: z.nullable(z.number()),
  session_limit: z.number(),
  key_prefix: z.string(),
  created_at: Timestamp,
  /** Absent from a service older than workspaces, whose every key is its owner's. */
  member: z.optional(z.object({ id: z.string(), name: z.string() })),
  role: z.optional(Role),
  scope: z.optional(Scope),
  /** The operations (by the API's names, e.g. `deleteProfile`) the key's role may not call: a client offers the rest. */
  may_not: z.optional(z.array(z.string())),
});

export type Plan = z.infer<typeof Plan>;
export type Account = z.infer<typeof Account>;
