import { z } from '../zod';
import { Plan } from './account';

/** Who the workspace's requests of the last hour are counted for: each member (their keys together) or each key. */
export const USAGE_BY = ['member', 'key'] as const;

/** One member's or key's requests over the last hour; a key's row names the member it acts as. */
export const UsageRow = z.object({
  id: z.string(),
  name: z.string(),
  member_id: z.string(),
  requests: z.number(),
});

/** GET /v1/usage: the workspace's requests of the last hour against its plan's limit, per member or per key. */
export const Usage = z.object({
  by: z.enum(USAGE_BY),
  plan: Plan,
  /** The plan's requests an hour; null for a plan without a limit (whose requests are not counted). */
  limit: z.nullable(z.number()),
  /** Every request counted in the last hour, whoever made it. */
  used: z.number(),
  /** The most requests first. Revoked keys and removed members are listed while they have requests in the hour. */
  data: z.array(UsageRow),
});

export type Usage = z.infer<typeof Usage>;
export type UsageRow = z.infer<typeof UsageRow>;
