import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Thrown for a TRUST_PROXY that cannot be read; the message is a sentence for the operator. */
export class TrustProxySettingError extends Error {}

/**
 * The proxies whose `X-Forwarded-For` is believed (TRUST_PROXY: addresses and CIDR ranges, comma-separated).
 * None by default: then the client is the TCP peer, and a header anyone can write is ignored.
 */
export class TrustedProxies {
  private constructor(private readonly ranges: Range[]) {}

  static parse(setting: string): TrustedProxies {
    const parts = setting
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    return new TrustedProxies(parts.map(parseRange));
  }

  /** The client's address: the right-most address of the chain (forwarded entries, then the peer) not a trusted proxy. */
  clientOf(peer: string, forwardedFor: string | undefined): string {
    const chain = (forwardedFor ?? '').split(',').map((entry) => entry.trim());
    let client = normalized(peer);
    while (client !== null && this.trusts(client) && chain.length > 0) {
      // Written by a proxy we trust: the entry it appended is the address it was connected from.
      const reported = normalized(chain.pop() ?? '');
      if (reported === null) break;
      client = reported;
    }
    return client ?? peer;
  }

  private trusts(address: string): boolean {
    const parsed = ipaddr.parse(address);
    return this.ranges.some(([base, bits]) => parsed.kind() === base.kind() && parsed.match(base, bits));
  }
}

function parseRange(part: string): Range {
  const [address = '', bits] = part.split('/');
  try {
    if (isIP(address) === 0) throw new Error('not an address');
    if (bits !== undefined) return ipaddr.parseCIDR(part);
    const parsed = ipaddr.process(address);
    return [parsed, parsed.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new TrustProxySettingError(
      `TRUST_PROXY must list proxy addresses or CIDR ranges separated by commas (such as 10.0.0.2,10.1.0.0/16), not "${part}"`,
    );
  }
}

/** The address in its plain form (an IPv4-mapped IPv6 address as IPv4), or null when it is none. */
function normalized(text: string): string | null {
  const unbracketed = text.replace(/^\[(.*)\]$/, '$1');
  return isIP(unbracketed) === 0 ? null : ipaddr.process(unbracketed).toString();
}
