/**
 * What Chromium refuses in a cookie (`Storage.setCookies: Invalid cookie fields`), as measured on Chromium 156,
 * said as a phrase per field so that a bad cookie is answered before any browser starts.
 */

/** Chromium's limit on a cookie's name and value together, in UTF-8 bytes. */
const MAX_NAME_VALUE_BYTES = 4096;
/** Chromium's limit on a path, once %-escaped as in a URL. */
const MAX_PATH_LENGTH = 1024;

const CONTROL_NAMES: Record<string, string> = {
  '\t': 'a tab',
  '\n': 'a line break (LF)',
  '\r': 'a carriage return (CR)',
  '\v': 'a vertical tab (VT)',
};

/** The first control character of `text` (U+0000–U+001F, U+007F), named for a person, or null. */
function controlCharacter(text: string): string | null {
  const found = [...text].find((character) => character < ' ' || character === '\x7f');
  if (found === undefined) return null;
  return (
    CONTROL_NAMES[found] ??
    `the control character U+${found.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`
  );
}

/** Why Chromium would refuse this as a cookie's name or value (`;` ends either, `=` ends a name), or null. */
export function nameOrValueProblem(text: string, field: 'name' | 'value'): string | null {
  const control = controlCharacter(text);
  if (control) return `must not contain ${control}`;
  if (text.includes(';')) return 'must not contain “;”';
  if (field === 'name' && text.includes('=')) return 'must not contain “=”';
  if (text !== text.trim()) return 'must not begin or end with a space';
  return null;
}

/** Why Chromium would refuse this path, or null: empty (the default, /) or /…, without ; or line breaks. */
export function pathProblem(path: string): string | null {
  if (path !== '' && !path.startsWith('/')) return 'must begin with /';
  const control = controlCharacter(path);
  if (control) return `must not contain ${control}`;
  if (path.includes(';')) return 'must not contain “;”';
  if (encodeURI(path).length > MAX_PATH_LENGTH)
    return `must be at most ${MAX_PATH_LENGTH} characters once written as a URL path`;
  return null;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HOST_NAME =
  /^(?!.{254})[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/i;

function isIpv6Literal(host: string): boolean {
  if (!/^\[[0-9a-f:.]+\]$/i.test(host)) return false;
  try {
    return new URL(`http://${host}/`).hostname === host.toLowerCase();
  } catch {
    return false;
  }
}

/**
 * Why this is not a cookie domain, or null. A domain is a host name or an IP address; a leading dot (a cookie
 * for the subdomains too) needs a name of two labels or more, since a bare top-level name such as `.com` would
 * hand the cookie to every site under it.
 */
export function domainProblem(domain: string): string | null {
  const host = domain.startsWith('.') ? domain.slice(1) : domain;
  const isIp = IPV4.test(host) || isIpv6Literal(host);
  if (!isIp && !HOST_NAME.test(host))
    return /[^\x20-\x7e]/.test(host)
      ? 'must be a host name in ASCII (write an international name in its xn-- form) or an IP address'
      : 'must be a host name such as example.com or .example.com, or an IP address, with nothing else';
  if (!isIp && /^[\d.]+$/.test(host)) return 'is not a valid IP address';
  if (domain.startsWith('.') && !isIp && !host.includes('.'))
    return `must name a site: with its leading dot, “${domain}” would match every site under ${host}`;
  return null;
}

/** The fields of a cookie that Chromium checks together. */
interface CookieFields {
  name: string;
  value: string;
  domain: string;
  path: string;
  secure: boolean;
  same_site: 'Strict' | 'Lax' | 'None' | null;
}

/** Why Chromium would refuse the cookie as a whole, with the field to blame, or null. */
export function cookieProblem(cookie: CookieFields): { field: keyof CookieFields; message: string } | null {
  const { name, value } = cookie;
  if (name === '' && value === '')
    return { field: 'name', message: 'must not be empty when the value is empty' };
  if (name === '' && value.includes('='))
    return { field: 'value', message: 'must not contain “=” when the name is empty' };
  const bytes = new TextEncoder().encode(name + value).length;
  if (bytes > MAX_NAME_VALUE_BYTES)
    return {
      field: 'value',
      message: `must be at most ${MAX_NAME_VALUE_BYTES} bytes together with the name (they are ${bytes})`,
    };
  const prefix = /^__(secure|host)-/i.exec(name)?.[1]?.toLowerCase();
  if (prefix && !cookie.secure)
    return {
      field: 'secure',
      message: `must be true for a cookie named __${prefix === 'host' ? 'Host' : 'Secure'}-…`,
    };
  if (prefix === 'host' && cookie.domain.startsWith('.'))
    return { field: 'domain', message: 'must not begin with a dot for a cookie named __Host-…' };
  if (prefix === 'host' && cookie.path !== '/')
    return { field: 'path', message: 'must be / for a cookie named __Host-…' };
  if (cookie.same_site === 'None' && !cookie.secure)
    return { field: 'secure', message: 'must be true for a cookie with same_site None' };
  return null;
}
