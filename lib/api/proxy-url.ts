export const PROXY_SCHEMES = ['http', 'https', 'socks4', 'socks5', 'socks5h'] as const;
type ProxyScheme = (typeof PROXY_SCHEMES)[number];

export interface ProxyParts {
  scheme: ProxyScheme;
  host: string;
  port: number;
  username: string | null;
  password: string | null;
}

const SHAPES =
  'must be host:port, host:port:user:pass, user:pass@host:port or scheme://[user:pass@]host:port';

const SCHEME = /^([a-z0-9]+):\/\//i;
// A name, an IPv4 address or a bracketed IPv6 address, then the port; for host:port:user:pass the rest.
const ADDRESS = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})(?::([^:]+):(.+))?$/i;

/**
 * Splits a proxy as people paste it into its parts, or explains in a phrase why it is not one:
 * `scheme://[user[:pass]@]host:port[/]`, or without a scheme (HTTP) `host:port`, `host:port:user:pass` or
 * `user:pass@host:port`. A URL's user name and password are %-escaped; the others are taken as written (a
 * password may hold `:` and `@`).
 */
export function parseProxyUrl(text: string): ProxyParts | { error: string } {
  let rest = text.trim();
  if (/\s/.test(rest)) return { error: SHAPES };
  const scheme = SCHEME.exec(rest)?.[1]?.toLowerCase();
  if (scheme !== undefined) rest = rest.slice(scheme.length + 3).replace(/\/$/, '');
  // host:port:user:pass first: its password may hold an @.
  const at = ADDRESS.test(rest) ? -1 : rest.lastIndexOf('@');
  const credentials = at < 0 ? null : rest.slice(0, at);
  const address = ADDRESS.exec(rest.slice(at + 1));
  if (!address || (credentials !== null && address[3] !== undefined)) return { error: SHAPES };
  const [, host = '', port = ''] = address;
  if (scheme !== undefined && !isProxyScheme(scheme))
    return { error: `scheme must be one of ${PROXY_SCHEMES.join(', ')}` };
  const portNumber = Number(port);
  if (portNumber < 1 || portNumber > 65535) return { error: 'port must be between 1 and 65535' };
  if (!URL.canParse(`http://${host}/`))
    return { error: `host ${host} is not a valid host name or IP address` };
  const [username, password] = credentialsOf(credentials, address);
  if (username === '') return { error: SHAPES };
  const written = (value: string | undefined) =>
    value === undefined ? null : scheme === undefined ? value : decodeURIComponent(value);
  try {
    return {
      scheme: scheme ?? 'http',
      host: host.toLowerCase(),
      port: portNumber,
      username: written(username),
      password: written(password),
    };
  } catch {
    return { error: 'user name or password has a broken %-escape' };
  }
}

/** The user name and password of `user[:pass]@…` or of `…:user:pass`. */
function credentialsOf(credentials: string | null, address: RegExpExecArray): (string | undefined)[] {
  if (credentials === null) return [address[3], address[4]];
  const colon = credentials.indexOf(':');
  return colon < 0 ? [credentials, undefined] : [credentials.slice(0, colon), credentials.slice(colon + 1)];
}

export function isProxyScheme(value: string): value is ProxyScheme {
  return (PROXY_SCHEMES as readonly string[]).includes(value);
}

/** The URL of a proxy as the service shows it: the user name but never the password. */
export function formatProxyUrl(parts: Omit<ProxyParts, 'password'>): string {
  const user = parts.username ? `${encodeURIComponent(parts.username)}@` : '';
  return `${parts.scheme}://${user}${parts.host}:${parts.port}`;
}

/** A proxy's name when none is given: user@host:port, so that several logins on one host stay apart. */
export function proxyLabel(parts: { host: string; port: number; username?: string | null }): string {
  return `${parts.username ? `${parts.username}@` : ''}${parts.host}:${parts.port}`;
}

/** A proxy URL with `password` written in for its user; text that is not a proxy with a user stays as it is. */
export function withProxyPassword(url: string, password: string): string {
  const parts = parseProxyUrl(url);
  if ('error' in parts || !parts.username || !password) return url;
  const user = `${encodeURIComponent(parts.username)}:${encodeURIComponent(password)}@`;
  return `${parts.scheme}://${user}${parts.host}:${parts.port}`;
}
