/** The deepest nesting of arrays and objects a request body may have; no request of the contract needs more than a few. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether the JSON text in `bytes` nests arrays and objects deeper than `limit`, found by one pass over the bytes,
 * before anything parses or walks the value: every walk of a value (the U+0000 scan, the schema's) goes as deep
 * as the value, and a 16 KB body can nest 8,000 levels. The bytes of `"`, `\`, brackets and braces never occur
 * inside a multi-byte UTF-8 character, so the raw bytes are scanned as they came; text that is not JSON is left
 * to the parser to refuse.
 */
export function nestsDeeperThan(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index] as number;
    if (inString) {
      if (byte === BACKSLASH) index++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth--;
  }
  return false;
}
