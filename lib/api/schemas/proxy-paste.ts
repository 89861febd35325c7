import { z } from '../zod';

/** What became of one pasted line: the saved proxy it is (saved now, or already), or why it is none. */
export const PastedProxy = z.object({
  ok: z.boolean(),
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  /** It said the same as a proxy saved before (or an earlier line): nothing new was saved. */
  known: z.optional(z.boolean()),
  problem: z.optional(z.object({ status: z.number(), code: z.string(), detail: z.string() })),
});

/** The answer to POST /v1/proxies/paste: each line in its place, and the totals. */
export const ProxyPasteResult = z.object({
  added: z.number(),
  known: z.number(),
  refused: z.number(),
  items: z.array(PastedProxy),
});

export type PastedProxy = z.infer<typeof PastedProxy>;
export type ProxyPasteResult = z.infer<typeof ProxyPasteResult>;
