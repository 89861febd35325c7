import { z } from '../zod';
import { Cookie } from './cookies';

/** What became of one profile of a bulk action: done (with what it made), or the problem, as the API answers one. */
export const BulkItem = z.object({
  id: z.string(),
  /** The profile's name when it was selected (absent for an id that is no profile of the account). */
  name: z.optional(z.string()),
  ok: z.boolean(),
  /** set_proxy: the saved proxy it now uses. */
  proxy_id: z.optional(z.string()),
  /** start: the session started. */
  session_id: z.optional(z.string()),
  /** start: no room now; it waits in line and its session starts once there is room. */
  waiting: z.optional(z.boolean()),
  /** run: the run queued. */
  run_id: z.optional(z.string()),
  /** export_cookies: its cookies. */
  cookies: z.optional(z.array(Cookie)),
  problem: z.optional(z.object({ status: z.number(), code: z.string(), detail: z.string() })),
});

/** One problem the failed items met, said once: how many profiles met it, the first few by name and by id. */
export const BulkProblem = z.object({
  status: z.number(),
  code: z.string(),
  detail: z.string(),
  count: z.number(),
  /** The first profiles that met it, by name (by id for an id that is no profile of the account). */
  profiles: z.array(z.string()),
  /** The same profiles' ids, in the same order: the failed items listed for this problem. */
  ids: z.array(z.string()),
});

/**
 * The answer to a bulk action: an item per profile selected, in the selection's order, except failures met by more
 * profiles than a problem names: those are counted in their problem and in `unlisted`, so that 10,000 unknown ids
 * are answered in one problem rather than 10,000 items.
 */
export const BulkResult = z.object({
  action: z.string(),
  /** How many profiles the selection held. */
  selected: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  /** start: how many of those that succeeded wait for room (the others started now). */
  waiting: z.optional(z.number()),
  /** run: the batch its runs belong to. */
  batch_id: z.optional(z.string()),
  /** set_proxy from a list: how many of its proxies were saved anew (the others were already the account's). */
  proxies_created: z.optional(z.number()),
  /** The failed items' problems, each said once, the most met first. */
  problems: z.array(BulkProblem),
  items: z.array(BulkItem),
  /** Failed profiles left out of `items` (each counted in its problem), and a sentence saying so. */
  unlisted: z.optional(z.object({ count: z.number(), detail: z.string() })),
});

export type BulkItem = z.infer<typeof BulkItem>;
export type BulkResult = z.infer<typeof BulkResult>;
export type BulkProblem = z.infer<typeof BulkProblem>;
