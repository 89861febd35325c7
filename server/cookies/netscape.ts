import { CookieInput } from '../../lib/api/inputs/cookies';
import type { Cookie } from '../../lib/api/schemas/cookies';
import { z } from '../../lib/api/zod';

/** Netscape's cookies.txt, as curl, wget and the cookie-export extensions write it. */
const HEADER = '# Netscape HTTP Cookie File\n';
const HTTP_ONLY_PREFIX = '#HttpOnly_';

export class CookieFileError extends Error {
  override name = 'CookieFileError';
}

/** cookies.txt: one cookie a line, seven fields separated by tabs; `#HttpOnly_` marks an HTTP-only cookie. */
export function toCookieFile(cookies: Cookie[]): string {
  const lines = cookies.map((cookie) =>
    [
      (cookie.http_only ? HTTP_ONLY_PREFIX : '') + cookie.domain,
      cookie.domain.startsWith('.') ? 'TRUE' : 'FALSE',
      cookie.path,
      cookie.secure ? 'TRUE' : 'FALSE',
      String(cookie.expires === null ? 0 : Math.floor(cookie.expires)),
      cookie.name,
      cookie.value,
    ].join('\t'),
  );
  return HEADER + lines.map((line) => `${line}\n`).join('');
}

/**
 * The cookies of a cookies.txt; comments and blank lines are skipped. A line that is not a cookie, or a cookie
 * Chromium would refuse, is refused by its number in a sentence.
 */
export function fromCookieFile(text: string): Cookie[] {
  const cookies: Cookie[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const httpOnly = raw.startsWith(HTTP_ONLY_PREFIX);
    const line = httpOnly ? raw.slice(HTTP_ONLY_PREFIX.length) : raw;
    if (line.trim() === '' || (!httpOnly && line.startsWith('#'))) return;
    const number = index + 1;
    const fields = line.split('\t');
    const [domain = '', , path = '', secure = '', expires = '', name = ''] = fields;
    const problem =
      fields.length < 7
        ? `a cookies.txt line has 7 fields separated by tabs (domain, subdomains, path, secure, expiry, name, value); this one has ${fields.length}`
        : !domain
          ? 'its first field, the domain, is empty'
          : !/^\d+$/.test(expires)
            ? `its expiry “${expires}” is not a whole number of seconds since 1970`
            : null;
    if (problem) throw new CookieFileError(`Line ${number} is not a cookie: ${problem}.`);
    const seconds = Number(expires);
    cookies.push(
      checked(number, {
        name,
        // Everything after the sixth tab, so that a tab in a value is refused as such rather than cut off.
        value: fields.slice(6).join('\t'),
        domain,
        path: path || '/',
        expires: seconds === 0 ? null : seconds,
        secure: secure.toUpperCase() === 'TRUE',
        http_only: httpOnly,
        same_site: null,
      }),
    );
  });
  return cookies;
}

/** The cookie of line `number`, or a CookieFileError saying which of its fields Chromium would refuse and why. */
function checked(number: number, cookie: Cookie): Cookie {
  const result = z.safeParse(CookieInput, cookie);
  if (result.success) return cookie;
  const [issue] = result.error.issues;
  const field = String(issue?.path[0] ?? 'cookie');
  const shownName = cookie.name.length > 40 ? `${cookie.name.slice(0, 40)}…` : cookie.name;
  throw new CookieFileError(
    `Line ${number}: the ${field.replace('_', ' ')} of the cookie ${JSON.stringify(shownName)} ${issue?.message ?? 'is not valid'}.`,
  );
}
