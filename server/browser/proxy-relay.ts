import { randomBytes } from 'node:crypto';
import type { EgressPolicy } from '../core/egress-policy';
import { EgressUnresolved, resolveAllowed } from '../network/egress-lookup';
import type { RelayCredentials } from './relay-credentials';
import type { RelayLimits } from './relay-limits';
import { RELAY_USERNAME } from './relay-server';
import { openRelayInThread } from './relay-threads';
import type { ProxySettings } from './settings';

/** The local proxy every session's browser sends all its traffic through. */
export interface SessionRelay {
  /** What Chromium's --proxy-server gets. */
  proxyServer: string;
  /** What a caller presents to be served; the browser answers the relay's challenge with it (never a flag). */
  credentials: RelayCredentials;
  /** The same credentials as a Proxy-Authorization value, for the service's own requests. */
  authorization: string;
  /** Resolves once the relay asks this process group (the session's browser) for the credentials. */
  challenge(processGroup: number): Promise<void>;
  /** The policy's sentence if it refused a recent request to `host` (as the browser named it), else null. */
  refusalOf(host: string): string | null;
  close(): Promise<void>;
}

export interface SessionRelayOptions {
  /** The profile's own proxy, or null to go out directly. */
  upstream: ProxySettings | null;
  policy: EgressPolicy;
  /** Told of each destination the policy refused (the relay answers 403 to the browser). */
  onRefused?(detail: string): void;
  /** RELAY_LIMITS when left out (tests set shorter ones). */
  limits?: RelayLimits;
}

/** How many refused hosts a relay remembers, the latest ones, for the steps that ask why a page did not load. */
const REMEMBERED_REFUSALS = 32;

const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/**
 * A relay per session, run on one of the service's relay threads so that its bytes never queue behind the API
 * (relay-server.ts says what it enforces), with a secret of its own that a caller must present. The refusals it reports are remembered here, on the service's thread,
 * before the browser hears of them. Throws an Error whose message is a sentence when the settings cannot work.
 */
export async function openSessionRelay(options: SessionRelayOptions): Promise<SessionRelay> {
  const refusals = new Map<string, string>();
  const remember = (host: string, sentence: string) => {
    refusals.delete(host);
    refusals.set(host, sentence);
    for (const oldest of refusals.keys()) {
      if (refusals.size <= REMEMBERED_REFUSALS) break;
      refusals.delete(oldest);
    }
  };
  const secret = randomBytes(32).toString('base64url');
  const relay = await openRelayInThread(
    { upstream: options.upstream, egressAllow: options.policy.setting, secret, limits: options.limits },
    (host, detail) => {
      remember(bare(host), detail);
      options.onRefused?.(detail);
    },
  );
  const proxyServer = `http://127.0.0.1:${relay.port}`;
  return {
    proxyServer,
    credentials: { proxyServer, username: RELAY_USERNAME, password: secret },
    authorization: `Basic ${Buffer.from(`${RELAY_USERNAME}:${secret}`).toString('base64')}`,
    challenge: relay.challenge,
    refusalOf: (host) => refusals.get(bare(host)) ?? null,
    close: relay.close,
  };
}

/**
 * Throws the policy's EgressRefused when a profile's proxy is at an address sessions may not reach, so that a
 * session is refused before its browser starts rather than failing every page. A name that does not resolve
 * passes: it is the proxy's own failure, told when a page loads.
 */
export async function refuseForbiddenProxy(policy: EgressPolicy, proxy: ProxySettings): Promise<void> {
  try {
    await resolveAllowed(policy, proxy.host);
  } catch (error) {
    if (!(error instanceof EgressUnresolved)) throw error;
  }
}
