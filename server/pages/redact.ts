import { cutUrl } from './page-text';

/*
 * What an agent never reads of a tab's network: the values of headers and query parameters whose name says they
 * hold a secret (a session's cookies and tokens are the account's, not the model's). A name is read as words
 * ("X-Auth-Token", "accessToken", "api_key"): a word that is, begins with or ends with a secret's word counts
 * ("apikey", "passwd"), and one that holds a long one anywhere ("JSESSIONID"), in any case.
 */
const SECRET_WORDS = [
  'code',
  'token',
  'key',
  'secret',
  'password',
  'pw',
  'pass',
  'auth',
  'jwt',
  'session',
  'sessid',
  'sig',
  'signature',
  'credential',
  'cookie',
  'csrf',
  'xsrf',
];
const MAX_VALUE_CHARS = 500;
const REDACTED = '[redacted]';

function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function isSecretName(name: string): boolean {
  const words = wordsOf(name);
  // "X-Access" names an access grant; "Access-Control-Allow-Origin" does not.
  if (words.at(-1) === 'access' && words.length <= 2) return true;
  return words.some((word) =>
    SECRET_WORDS.some((secret) =>
      secret.length >= 5 ? word.includes(secret) : word.startsWith(secret) || word.endsWith(secret),
    ),
  );
}

const cut = (text: string) => (text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text);

/** A header set with every secret's value replaced, and every other value cut. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, isSecretName(name) ? REDACTED : cut(value)]),
  );
}

/** An address with the values of secret-named query parameters (and any password) replaced. */
export function redactUrl(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return cutUrl(address);
  }
  if (url.password) url.password = REDACTED;
  for (const name of new Set(url.searchParams.keys()))
    if (isSecretName(name)) url.searchParams.set(name, REDACTED);
  return cutUrl(url.href);
}
