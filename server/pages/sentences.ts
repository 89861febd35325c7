/* Sentences the page layer words its errors with, for runs' steps and agents' page tools alike. */

const TARGET_MAX_CHARS = 60;

/** "2 s", "1.5 s": durations as people read them in error sentences. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** "900 bytes", "64 KB", "1.5 MB": sizes as people read them in error sentences. */
export function bytes(count: number): string {
  if (count < 1024) return `${count} bytes`;
  if (count < 2 ** 20) return `${Number((count / 1024).toFixed(1))} KB`;
  return `${Number((count / 2 ** 20).toFixed(1))} MB`;
}

/** A step's target in quotes, on one line and cut short: selectors and scripts can be long. */
export function quoted(target: string): string {
  const oneLine = target.replace(/\s+/g, ' ').trim();
  return `'${oneLine.length > TARGET_MAX_CHARS ? `${oneLine.slice(0, TARGET_MAX_CHARS - 1)}…` : oneLine}'`;
}

/**
 * The useful part of an error for a sentence: Playwright's messages start with the API call ("locator.click: ")
 * and go on with a (coloured) multi-line call log or a stack, and page errors are prefixed "Error: ". Keeps the
 * first line without those prefixes or a final period.
 */
export function reasonOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const firstLine = text.split('\n')[0] ?? '';
  const reason = firstLine
    .trim()
    .replace(/^[A-Za-z]+\.[A-Za-z]+: /, '')
    .replace(/^Error: /, '')
    .replace(/\.$/, '');
  return reason || 'unknown error';
}

export function stepOutputTooLarge(size: number, limit: number): string {
  return `its result is ${bytes(size)} of JSON, over the limit of ${bytes(limit)} per step`;
}

/** What Chromium's network errors mean to a person; the code stays in brackets, as the technical detail. */
const NAVIGATION_REFUSALS: Record<string, string> = {
  ERR_UNSAFE_PORT: 'the browser refuses to open that port, which is kept for other services than the web',
  ERR_NAME_NOT_RESOLVED: 'the address names a host that does not exist',
  ERR_CONNECTION_REFUSED: 'nothing answers at that address (the connection was refused)',
  ERR_CONNECTION_RESET: 'the site closed the connection',
  ERR_CONNECTION_TIMED_OUT: 'the site did not answer in time',
  ERR_ADDRESS_UNREACHABLE: 'that address cannot be reached from here',
  ERR_TUNNEL_CONNECTION_FAILED: "the profile's proxy or this service's egress policy refused the connection",
  ERR_PROXY_CONNECTION_FAILED: "the profile's proxy cannot be reached",
  ERR_EMPTY_RESPONSE: 'the site answered nothing',
  ERR_TOO_MANY_REDIRECTS: 'the site redirects in a loop',
  ERR_ABORTED: 'the navigation was abandoned (the page went elsewhere or was closed)',
};

/** A navigation's failure as a sentence: "the page did not load: <why> (net::ERR_…)". */
export function navigationFailure(error: unknown): string {
  const code = /net::(ERR_[A-Z_]+)/.exec(reasonOf(error))?.[1];
  if (!code) return `the page did not load (${reasonOf(error)})`;
  const why =
    NAVIGATION_REFUSALS[code] ??
    (code.startsWith('ERR_CERT_') ? "the site's certificate is not valid" : null);
  return `the page did not load${why ? `: ${why}` : ''} (net::${code})`;
}
