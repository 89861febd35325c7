import type { Cookie } from '../../lib/api/schemas/cookies';

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

/** The cookies of a cookies.txt; comments and blank lines are skipped; a malformed line is refused by number. */
export function fromCookieFile(text: string): Cookie[] {
  const cookies: Cookie[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const httpOnly = raw.startsWith(HTTP_ONLY_PREFIX);
    const line = httpOnly ? raw.slice(HTTP_ONLY_PREFIX.length) : raw;
    if (line.trim() === '' || (!httpOnly && line.startsWith('#'))) return;
    const fields = line.split('\t');
    const [domain = '', , path = '', secure = '', expires = '', name = '', value = ''] = fields;
    const problem =
      fields.length < 7
        ? `has ${fields.length} tab-separated fields where cookies.txt has 7 (domain, subdomains, path, secure, expiry, name, value)`
        : !domain
          ? 'has no domain'
          : !/^\d+$/.test(expires)
            ? `has the expiry "${expires}", which is not whole seconds since 1970`
            : null;
    if (problem) throw new CookieFileError(`Line ${index + 1} of the cookies.txt ${problem}.`);
    const seconds = Number(expires);
    cookies.push({
      name,
      // A value may itself hold tabs.
      value: fields.length > 7 ? fields.slice(6).join('\t') : value,
      domain,
      path: path || '/',
      expires: seconds === 0 ? null : seconds,
      secure: secure.toUpperCase() === 'TRUE',
      http_only: httpOnly,
      same_site: null,
    });
  });
  return cookies;
}
