import { z } from '../zod';

/** What became of one row of an import: the profile made, or the row's problem, by its line in the file. */
export const ImportedRow = z.object({
  line: z.number(),
  ok: z.boolean(),
  /** The profile created. */
  id: z.optional(z.string()),
  name: z.optional(z.string()),
  problem: z.optional(
    z.object({
      status: z.number(),
      code: z.string(),
      detail: z.string(),
      errors: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
    }),
  ),
});

/** The answer to POST /v1/profiles/import: each row in the file's order, and the totals. */
export const ProfileImportResult = z.object({
  /** Rows read (the header not counted). */
  total: z.number(),
  created: z.number(),
  failed: z.number(),
  /** Proxies saved anew; the rows' other proxies were already the account's. */
  proxies_created: z.number(),
  items: z.array(ImportedRow),
});

export type ImportedRow = z.infer<typeof ImportedRow>;
export type ProfileImportResult = z.infer<typeof ProfileImportResult>;
