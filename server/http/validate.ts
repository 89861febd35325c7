import type { Context, MiddlewareHandler } from 'hono';
import { formatPath, summarizeIssues, toFieldErrors } from '../../lib/api/issues';
import { z } from '../../lib/api/zod';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../core/json-depth';
import { decodeCursor } from '../store/pagination';
import type { AppEnv } from './env';
import { ProblemError, validationProblem } from './problem';

export const MAX_BODY_BYTES = 1024 * 1024;
const DRAIN_BYTES = 4 * MAX_BODY_BYTES;

/** The request body, at most MAX_BODY_BYTES (413 beyond), read once and kept on the context. */
export async function readRawBody(c: Context<AppEnv>): Promise<Uint8Array> {
  const cached = c.get('rawBody');
  if (cached) return cached;
  const limit = c.get('bodyLimit') ?? MAX_BODY_BYTES;
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const stream = c.req.raw.body;
  if (stream) {
    for await (const chunk of stream) {
      size += chunk.byteLength;
      // Keep reading (and dropping) a little more, so that a client still sending gets to read the 413
      // instead of a reset connection; past that, give up on it.
      if (size > limit + DRAIN_BYTES) throw tooLarge(limit);
      if (size <= limit) chunks.push(chunk);
    }
  }
  if (size > limit) throw tooLarge(limit);
  const body = Buffer.concat(chunks);
  c.set('rawBody', body);
  return body;
}

/** Parses and validates a JSON body: 415 if not JSON, 413 if too large, 400 if malformed, 422 if invalid. */
export async function readJsonBody<S extends z.core.$ZodType>(
  c: Context<AppEnv>,
  schema: S,
): Promise<z.output<S>> {
  if (!isJsonContentType(c.req.header('content-type'))) {
    throw new ProblemError({
      status: 415,
      code: 'unsupported_media_type',
      detail: 'Send the request body as JSON with the header Content-Type: application/json.',
    });
  }
  const json = parseJson(await readRawBody(c));
  return validate(schema, json, 'body');
}

/** Validates the query string against a query schema (422 with field errors). */
export function readQuery<S extends z.core.$ZodType>(c: Context<AppEnv>, schema: S): z.output<S> {
  return validate(schema, c.req.query(), 'query');
}

/**
 * The position a list continues after, from an opaque `cursor` (422 if it is not one of ours). Absent or
 * empty (`cursor=`, as a client may send when it has no cursor yet) is the first page.
 */
export function readCursor(cursor: string | undefined): number | null {
  if (cursor === undefined || cursor === '') return null;
  const position = decodeCursor(cursor);
  if (position === null) {
    throw validationProblem(
      [{ path: 'cursor', message: 'is not a cursor from this list' }],
      'Invalid query: cursor: use the next_cursor of the previous page as it came.',
    );
  }
  return position;
}

/** Why no text the service takes may hold U+0000: PostgreSQL's text and jsonb cannot store it. */
const NO_NUL = 'must not contain U+0000 (the NUL character)';

/**
 * Validates a body or query (422 with field errors). Text with U+0000 is refused first, wherever it is (a
 * value or a key): no id, name or script can hold it, and the database would fail on it.
 */
export function validate<S extends z.core.$ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query' | 'arguments',
): z.output<S> {
  const nul = pathToNul(value);
  if (nul !== null) {
    const path = formatPath(nul);
    throw validationProblem(
      [{ path, message: NO_NUL }],
      `Invalid ${where}: ${path ? `${path}: ` : ''}${NO_NUL}`,
    );
  }
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  throw validationProblem(
    toFieldErrors(result.error.issues),
    `Invalid ${where}: ${summarizeIssues(result.error.issues)}`,
  );
}

/**
 * Refuses a path with U+0000 (`%00`) in an id or name: 422, as for a body or query, instead of a database
 * error. For the /v1 routes, which look their path parameters up.
 */
export function refuseNulInPath(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // The path as sent, still percent-encoded: a NUL can only arrive as %00 (the HTTP parser refuses a raw one).
    const { pathname } = new URL(c.req.url);
    if (!/%00/i.test(pathname)) return next();
    throw validationProblem(
      [{ path: 'path', message: NO_NUL }],
      `Invalid path: ${pathname} holds %00 (U+0000, the NUL character), which no id or name can contain.`,
    );
  };
}

/**
 * Where the first text holding U+0000 is in a JSON value or query (a key counts too), or null. A walk with a
 * stack of its own, each entry linked to its parent, so that neither the depth of a value nor its size can
 * exhaust the call stack or copy paths over and over.
 */
function pathToNul(value: unknown): PropertyKey[] | null {
  interface Step {
    value: unknown;
    key: PropertyKey | null;
    parent: Step | null;
  }
  const pathOf = (step: Step, last?: PropertyKey): PropertyKey[] => {
    const path: PropertyKey[] = last === undefined ? [] : [last];
    for (let at = step; at.parent; at = at.parent) path.push(at.key as PropertyKey);
    return path.reverse();
  };
  const pending: Step[] = [{ value, key: null, parent: null }];
  for (let step = pending.pop(); step; step = pending.pop()) {
    const item = step.value;
    if (typeof item === 'string') {
      if (item.includes('\0')) return pathOf(step);
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--)
        pending.push({ value: item[index], key: index, parent: step });
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      for (const [key] of entries) if (key.includes('\0')) return pathOf(step, key.replaceAll('\0', '\\0'));
      for (let index = entries.length - 1; index >= 0; index--) {
        const [key, child] = entries[index] as [string, unknown];
        pending.push({ value: child, key, parent: step });
      }
    }
  }
  return null;
}

function isJsonContentType(header: string | undefined): boolean {
  const mediaType = header?.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

/**
 * The JSON value of a body: 400 if it is not JSON, 422 if it nests deeper than MAX_JSON_DEPTH (refused before it
 * is parsed, so that nothing walks it).
 */
export function parseJson(body: Uint8Array): unknown {
  if (nestsDeeperThan(body)) {
    throw validationProblem(
      [{ path: '', message: `nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep` }],
      `Invalid body: it nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep; no request needs more.`,
    );
  }
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : 'it is not valid UTF-8';
    throw new ProblemError({
      status: 400,
      code: 'malformed_json',
      detail:
        body.length === 0
          ? 'The request body is empty; send a JSON object.'
          : `The body is not valid JSON: ${reason}.`,
    });
  }
}

function tooLarge(limit: number): ProblemError {
  return new ProblemError({
    status: 413,
    code: 'payload_too_large',
    detail: `The request body is larger than ${limit / 1024 / 1024} MiB.`,
    // The rest of the body is not read: the connection cannot carry another request.
    headers: { Connection: 'close' },
  });
}
