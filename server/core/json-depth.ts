/**
 * The deepest nesting of arrays and objects the service parses: of a request body (no request of the contract
 * needs more than a few levels) or of a value a page gives a run.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether the JSON text in `json` (its UTF-8 bytes, or the text) nests arrays and objects deeper than `limit`,
 * found by one pass before anything parses or walks the value: every walk of a value (the U+0000 scan, the
 * schema's, JSON.stringify) goes as deep as the value, and a 16 KB body can nest 8,000 levels. `"`, `\`, brackets
 * and braces are ASCII, never part of a multi-byte UTF-8 character or a surrogate pair, so raw bytes are scanned
 * as they came; text that is not JSON is left to the parser to refuse.
 */
export function nestsDeeperThan(json: Uint8Array | string, limit = MAX_JSON_DEPTH): boolean {
  const at =
    typeof json === 'string' ? (index: number) => json.charCodeAt(index) : (index: number) => json[index];
  let depth = 0;
  let inString = false;
  for (let index = 0; index < json.length; index++) {
    const code = at(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
  }
  return false;
}
