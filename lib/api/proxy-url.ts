export const PROXY_SCHEMES = ['http', 'https', 'socks4', 'socks5'] as const;
type ProxyScheme = (typeof PROXY_SCHEMES)[number];

export interface ProxyParts {
  scheme: ProxyScheme;
  host: string;
  port: number;
  username: string | null;
  password: string | null;
}

// <scheme>://[user[:pass]@]<host>:<port>[/]  — host is a name, an IPv4 address or a bracketed IPv6 address.
const PROXY_URL =
  /^([a-z0-9]+):\/\/(?:([^:@/\s]+)(?::([^@/\s]*))?@)?(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})\/?$/i;

/** Splits a proxy URL into its parts, or explains in a phrase why it is not one. */
export function parseProxyUrl(text: string): ProxyParts | { error: string } {
  const match = PROXY_URL.exec(text.trim());
  if (!match) return { error: 'must look like scheme://[user:pass@]host:port' };
  const [, scheme = '', user, pass, host = '', port = ''] = match;
  const lowerScheme = scheme.toLowerCase();
  if (!isProxyScheme(lowerScheme)) return { error: `scheme must be one of ${PROXY_SCHEMES.join(', ')}` };
  const portNumber = Number(port);
  if (portNumber < 1 || portNumber > 65535) return { error: 'port must be between 1 and 65535' };
  if (!URL.canParse(`http://${host}/`))
    return { error: `host ${host} is not a valid host name or IP address` };
  try {
    return {
      scheme: lowerScheme,
      host: host.toLowerCase(),
      port: portNumber,
      username: user === undefined ? null : decodeURIComponent(user),
      password: pass === undefined ? null : decodeURIComponent(pass),
    };
  } catch {
    return { error: 'user name or password has a broken %-escape' };
  }
}

export function isProxyScheme(value: string): value is ProxyScheme {
  return (PROXY_SCHEMES as readonly string[]).includes(value);
}

/** The URL of a proxy as the service shows it: the user name but never the password. */
export function formatProxyUrl(parts: Omit<ProxyParts, 'password'>): string {
  const user = parts.username ? `${encodeURIComponent(parts.username)}@` : '';
  return `${parts.scheme}://${user}${parts.host}:${parts.port}`;
}

/** A proxy URL with `password` written in for its user; text that is not a proxy URL with a user stays as it is. */
export function withProxyPassword(url: string, password: string): string {
  const parts = parseProxyUrl(url);
  if ('error' in parts || !parts.username || !password) return url;
  const user = `${encodeURIComponent(parts.username)}:${encodeURIComponent(password)}@`;
  return `${parts.scheme}://${user}${parts.host}:${parts.port}`;
}

/**
 * One line of a pasted proxy list: `scheme://[user:pass@]host:port`, or `host:port[:user:pass]` (HTTP), as
 * proxy sellers hand them out.
 */
export function parseProxyLine(line: string): ProxyParts | { error: string } {
  const text = line.trim();
  if (text.includes('://')) return parseProxyUrl(text);
  const [host = '', port = '', username, ...rest] = text.split(':');
  const password = rest.length > 0 ? rest.join(':') : undefined;
  if (username !== undefined && password === undefined)
    return { error: 'must be host:port or host:port:user:pass' };
  const credentials =
    username === undefined ? '' : `${encodeURIComponent(username)}:${encodeURIComponent(password ?? '')}@`;
  const parsed = parseProxyUrl(`http://${credentials}${host}:${port}`);
  return 'error' in parsed
    ? { error: 'must be scheme://user:pass@host:port or host:port:user:pass' }
    : parsed;
}
