import { z } from '../zod';

/* The pieces the page tools' inputs (server/pages/tools/) share, and a call as it crosses between nodes. */

export const Ref = z
  .string()
  .check(
    z.maxLength(20, { error: 'must be a ref from the latest snapshot, such as e12', abort: true }),
    z.regex(/^[a-z0-9]{1,20}$/, 'must be a ref from the latest snapshot, such as e12'),
  );

/** The most one uploaded file may hold, and all of one call's files: a call's body is at most 1 MiB of JSON. */
export const MAX_UPLOAD_FILE_BYTES = 512 * 1024;
export const MAX_UPLOAD_TOTAL_BYTES = 700 * 1024;

export const UploadedFile = z.strictObject({
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  base64: z.string().check(z.maxLength(Math.ceil(MAX_UPLOAD_TOTAL_BYTES / 3) * 4 + 4)),
  type: z.optional(z.string().check(z.maxLength(100))),
});

/** How many of the newest entries a log tool lists. */
export const Newest = z.optional(z.int().check(z.minimum(1), z.maximum(200)));

/**
 * One call of a page tool, as it crosses to the node that runs the session: the node checks `args` against the
 * named tool's own schema (server/pages/tools/), as the MCP door did.
 */
export const PageCallInput = z.object({
  tool: z.string().check(z.maxLength(100)),
  args: z.record(z.string(), z.unknown()),
  /** Which agent (MCP connection) calls: each works in tabs of its own. */
  agent: z.optional(z.string().check(z.maxLength(200))),
});
export type PageCall = z.output<typeof PageCallInput>;

/** What a page tool answers, as it crosses back: text and a JSON object, or an image (a failure is thrown). */
export type PageAnswer =
  | { text: string; structured?: Record<string, unknown> }
  | { text: string; image: { data: string; mimeType: 'image/png' } };
