import type { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { EgressRefused } from '../core/domain-errors';
import type { EgressPolicy } from '../core/egress-policy';

/** A name that does not resolve: nothing was refused, there is just nowhere to go. */
export class EgressUnresolved extends Error {
  override name = 'EgressUnresolved';
}

export type Resolver = (host: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * The one address a host may be reached at: an IP in any spelling is read as such; a name is resolved once
 * and refused if any of its addresses is forbidden. Connecting to the address returned (never resolving the
 * name again) is what keeps DNS rebinding out.
 */
export async function resolveAllowed(
  policy: EgressPolicy,
  rawHost: string,
  resolve: Resolver = systemResolver,
): Promise<LookupAddress> {
  const host = rawHost.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValid(host)) {
    const address = ipaddr.process(host);
    const text = address.toString();
    const rule = policy.ruleAgainst(text);
    if (rule !== null) throw refused(rawHost, text, rule);
    return { address: text, family: address.kind() === 'ipv4' ? 4 : 6 };
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new EgressUnresolved(`The address ${rawHost} could not be resolved.`);
  }
  const first = addresses[0];
  if (!first) throw new EgressUnresolved(`The address ${rawHost} could not be resolved.`);
  for (const { address } of addresses) {
    const rule = policy.ruleAgainst(address);
    if (rule !== null) throw refused(rawHost, address, rule);
  }
  return first;
}

/** The policy's sentence: which address, which rule, and how the operator changes it. */
function refused(host: string, address: string, rule: string): EgressRefused {
  const where = host.replace(/^\[(.*)\]$/, '$1') === address ? host : `${host} (${address})`;
  return new EgressRefused(
    `${where} is in ${rule}, which sessions may not reach on this service; its operator can allow ranges with EGRESS_ALLOW.`,
  );
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for net.connect and http.request that answers the address already checked, whatever the name. */
export function pinnedLookup(resolved: LookupAddress): typeof dnsLookup {
  const answer = (
    _host: string,
    options: { all?: boolean } | number | LookupCallback,
    callback?: LookupCallback,
  ) => {
    const done = (typeof options === 'function' ? options : callback) as LookupCallback;
    if (typeof options === 'object' && options.all) done(null, [resolved]);
    else done(null, resolved.address, resolved.family);
  };
  return answer as unknown as typeof dnsLookup;
}
