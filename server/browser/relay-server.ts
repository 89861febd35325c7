import { timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';
import { type PrepareRequestFunctionResult, RequestError, Server } from 'proxy-chain';
import type { EgressPolicy } from '../core/egress-policy';
import { EgressRefused, EgressUnresolved, pinnedLookup, resolveAllowed } from '../network/egress-lookup';
import { peerInProcessGroup } from '../network/socket-owner';
import type { ProxySettings } from './settings';

export interface RelayServerOptions {
  /** The profile's own proxy, or null to go out directly. */
  upstream: ProxySettings | null;
  policy: EgressPolicy;
  /** What a caller presents as the proxy password to be served. */
  secret: string;
  /**
   * Told of each destination the policy refused, by the host the browser named; the browser hears the 403 only
   * once this settles, so whoever asks why a page did not load already knows.
   */
  onRefused(host: string, detail: string): Promise<void>;
}

export interface RelayServer {
  port: number;
  /** From now on a caller of this process group (the session's browser) without the secret is asked for it. */
  challenge(processGroup: number): void;
  close(): Promise<void>;
}

/** The user name a caller presents with the secret. */
export const RELAY_USERNAME = 'session';

/**
 * A session's relay, run on a relay thread: it serves only a caller that presents the session's secret as proxy
 * credentials, so neither another session's browser nor any other local program can borrow the profile's proxy
 * or its credentials. A caller without it is refused (403), except its own browser, which is asked for it (407:
 * the service answers over DevTools, see relay-credentials.ts), which the kernel's socket table tells apart: that
 * look-up is made only for a connection without the secret (the first of each browser context), never for the
 * browser's traffic once it has the secret. It resolves each destination once and refuses the ones the egress
 * policy forbids, redirects included (each is a new request through here), and adds the profile's proxy
 * credentials, which Chromium ignores in --proxy-server. Throws an Error whose message is a sentence when the settings cannot work.
 */
export async function startRelayServer(options: RelayServerOptions): Promise<RelayServer> {
  const { upstream, policy } = options;
  if (upstream) checkUpstream(upstream);
  const secret = Buffer.from(`${RELAY_USERNAME}:${options.secret}`);
  const presentsSecret = (username: string, password: string) => {
    const given = Buffer.from(`${username}:${password}`);
    return given.length === secret.length && timingSafeEqual(given, secret);
  };
  let isOwner: ((socket: Socket) => boolean) | null = null;
  const verdicts = new WeakMap<Socket, boolean>();
  const isOwnBrowser = (socket: Socket) => {
    if (isOwner === null) return false;
    let own = verdicts.get(socket);
    if (own === undefined) {
      own = isOwner(socket);
      verdicts.set(socket, own);
    }
    return own;
  };

  const server = new Server({
    host: '127.0.0.1',
    port: 0,
    prepareRequestFunction: async ({
      request,
      hostname,
      username,
      password,
    }): Promise<PrepareRequestFunctionResult> => {
      if (!presentsSecret(username, password)) {
        if (!isOwnBrowser(request.socket)) throw new RequestError('This relay serves one browser only.', 403);
        return { requestAuthentication: true, failMsg: 'This relay asks its browser for its credentials.' };
      }
      try {
        if (upstream === null) return { dnsLookup: pinnedLookup(await resolveAllowed(policy, hostname)) };
        const resolved = await resolveAllowed(policy, upstream.host);
        return {
          upstreamProxyUrl: upstreamUrl(upstream, resolved.address),
          dnsLookup: pinnedLookup(resolved),
        };
      } catch (error) {
        if (error instanceof EgressUnresolved) throw new RequestError(error.message, 502);
        if (!(error instanceof EgressRefused)) throw error;
        await options.onRefused(hostname, error.message);
        throw new RequestError(error.message, 403);
      }
    },
  });
  await server.listen();
  return {
    port: server.port,
    challenge(group) {
      isOwner = (socket) => peerInProcessGroup(socket, group);
    },
    close: () => server.close(true),
  };
}

function checkUpstream(proxy: ProxySettings): void {
  if ((proxy.scheme === 'http' || proxy.scheme === 'https') && proxy.username?.includes(':')) {
    throw new Error('The proxy user name contains a colon, which HTTP proxy authentication cannot carry.');
  }
  if (proxy.scheme === 'socks4' && proxy.password !== null) {
    throw new Error('SOCKS4 proxies take a user name but no password; use socks5 for a password.');
  }
}

/**
 * The profile's proxy with its credentials. SOCKS connects by the address checked (proxy-chain's SOCKS client
 * takes no lookup); HTTP(S) keeps the name, for TLS, and connects through the pinned lookup.
 */
function upstreamUrl(proxy: ProxySettings, checkedAddress: string): string {
  const isSocks = proxy.scheme === 'socks4' || proxy.scheme === 'socks5';
  const address = isSocks ? checkedAddress : proxy.host;
  const host = address.includes(':') ? `[${address}]` : address;
  const hasCredentials = proxy.username !== null || proxy.password !== null;
  const credentials = hasCredentials
    ? `${encodeURIComponent(proxy.username ?? '')}${proxy.password === null ? '' : `:${encodeURIComponent(proxy.password)}`}@`
    : '';
  return `${proxy.scheme}://${credentials}${host}:${proxy.port}`;
}
