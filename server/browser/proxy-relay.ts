import type { EgressPolicy } from '../core/egress-policy';
import { EgressUnresolved, resolveAllowed } from '../network/egress-lookup';
import { openRelayInThread } from './relay-threads';
import type { ProxySettings } from './settings';

/** The local proxy every session's browser sends all its traffic through. */
export interface SessionRelay {
  /** What Chromium's --proxy-server gets. */
  proxyServer: string;
  /** Resolves once the relay serves connections from this process group (the session's browser) only. */
  serveOnly(processGroup: number): Promise<void>;
  /** Resolves once the relay serves this process only (the service checking a proxy). */
  serveOnlyThisProcess(): Promise<void>;
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
}

/** How many refused hosts a relay remembers, the latest ones, for the steps that ask why a page did not load. */
const REMEMBERED_REFUSALS = 32;

const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/**
 * A relay per session, run on one of the service's relay threads so that its bytes never queue behind the API
 * (relay-server.ts says what it enforces). The refusals it reports are remembered here, on the service's thread,
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
  const relay = await openRelayInThread(
    { upstream: options.upstream, egressAllow: options.policy.setting },
    (host, detail) => {
      remember(bare(host), detail);
      options.onRefused?.(detail);
    },
  );
  return {
    proxyServer: `http://127.0.0.1:${relay.port}`,
    serveOnly: (group) => relay.serve(group),
    serveOnlyThisProcess: () => relay.serve('this process'),
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
