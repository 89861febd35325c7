import { reasonOf } from './sentences';

/**
 * What each status the profile's relay answers the browser with means when the proxy behind it failed
 * (relay-upstream.ts): with a proxy, the relay connects to nothing but the proxy, so these are the proxy's.
 */
const RELAY_STATUSES: Record<number, string> = {
  590: 'refused to reach the site',
  594: 'cannot be reached (the connection was refused)',
  595: 'cannot be reached (the connection was reset)',
  596: 'cannot be reached (the connection broke)',
  597: 'refused its user name or password',
  599: 'cannot be reached',
};

/** Chromium's own words for a proxy, or a tunnel through it, that failed. */
const PROXY_CODES =
  /net::(ERR_TUNNEL_CONNECTION_FAILED|ERR_PROXY_CONNECTION_FAILED|ERR_SOCKS_CONNECTION_FAILED)\b/;

function unreachable(proxy: string, why: string): Error {
  return new Error(`proxy_unreachable: the profile's proxy ${proxy} ${why}`);
}

/** A navigation answered by the relay for a failed proxy, as its failure; null for a page of the site. */
export function proxyFailureOfStatus(
  proxy: string | null | undefined,
  status: number | undefined,
): Error | null {
  const why = status === undefined ? undefined : RELAY_STATUSES[status];
  return proxy && why ? unreachable(proxy, why) : null;
}

/** A navigation that failed on the way through the profile's proxy, as the proxy's failure; null otherwise. */
export function proxyFailureOfError(proxy: string | null | undefined, error: unknown): Error | null {
  const code = PROXY_CODES.exec(reasonOf(error))?.[1];
  return proxy && code ? unreachable(proxy, `refused or failed the connection (net::${code})`) : null;
}
