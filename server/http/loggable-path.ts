/** A path segment after which the rest of the path is a credential: a `cdp_url`'s token. */
const TOKEN_AFTER = 'cdp';
/** The segment of a live view address whose token follows the session id. */
const LIVE = 'live';
/** A run this long of base64url characters is a signature (tokens carry 43); ids are shorter (24). */
const SIGNATURE_LIKE = /[A-Za-z0-9_-]{40,}/;
/** How often a segment is percent-decoded to read it: a token spelled `%2541…` is decoded twice. */
const DECODINGS = 3;
const CUT = '…';

/**
 * A request path as it may be logged: without a `cdp_url` or live view token however the path spells it (any
 * case, percent-encoded, with segments after it), and without any segment that looks like a signature.
 */
export function loggablePath(path: string): string {
  const segments = path.split('/');
  const logged: string[] = [];
  for (const [index, segment] of segments.entries()) {
    const read = readable(segment);
    if (SIGNATURE_LIKE.test(read)) {
      logged.push(CUT);
      continue;
    }
    logged.push(segment);
    const name = read.toLowerCase();
    const keep = name === TOKEN_AFTER ? index + 1 : name === LIVE ? index + 2 : -1;
    if (keep >= 0 && keep < segments.length) {
      logged.push(...segments.slice(index + 1, keep), CUT);
      break;
    }
  }
  return logged.join('/');
}

/** The segment percent-decoded byte by byte (never throws), until it no longer changes. */
function readable(segment: string): string {
  let text = segment;
  for (let round = 0; round < DECODINGS && text.includes('%'); round++)
    text = text.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  return text;
}
