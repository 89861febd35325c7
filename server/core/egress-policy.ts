import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Range = [Address, number];

/**
 * Addresses a session's browser may not reach unless the operator allows them (EGRESS_ALLOW): the host
 * itself, private networks, link-local (cloud metadata at 169.254.169.254 and fd00:ec2::254 included) and
 * every range that is not a public destination.
 */
const NAMED_RANGES = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7'],
} as const;

const OTHER_FORBIDDEN = [
  '0.0.0.0/8',
  '169.254.0.0/16',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/96',
  '100::/64',
  '2001::/32',
  '2001:db8::/32',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
];

const FORBIDDEN: { kind: string; cidr: string; range: Range }[] = [
  ...NAMED_RANGES.loopback.map((cidr) => ({ kind: 'loopback', cidr })),
  ...NAMED_RANGES.private.map((cidr) => ({ kind: 'private', cidr })),
  ...OTHER_FORBIDDEN.map((cidr) => ({
    kind: cidr.startsWith('169.254') || cidr.startsWith('fe80') ? 'link-local' : 'reserved',
    cidr,
  })),
].map(({ kind, cidr }) => ({ kind, cidr, range: ipaddr.parseCIDR(cidr) }));

/** Thrown for a setting that cannot be read; the message is a sentence for the operator. */
export class EgressSettingError extends Error {}

export class EgressPolicy {
  private constructor(
    private readonly allowed: Range[],
    readonly setting: string,
  ) {}

  /** EGRESS_ALLOW: comma-separated CIDR ranges, or the words `loopback` and `private`; empty allows none. */
  static parse(setting: string): EgressPolicy {
    const allowed: Range[] = [];
    for (const item of setting.split(',').map((part) => part.trim().toLowerCase())) {
      if (item === '') continue;
      if (item === 'loopback' || item === 'private') {
        allowed.push(...NAMED_RANGES[item].map((cidr) => ipaddr.parseCIDR(cidr)));
      } else if (ipaddr.isValidCIDR(item)) {
        allowed.push(ipaddr.parseCIDR(item));
      } else if (ipaddr.isValid(item)) {
        const address = ipaddr.parse(item);
        allowed.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      } else {
        throw new EgressSettingError(
          `EGRESS_ALLOW has "${item}", which is neither a CIDR range nor "loopback" or "private".`,
        );
      }
    }
    return new EgressPolicy(allowed, setting.trim());
  }

  /** Whether an IP address (any spelling Node or a resolver gives) may be connected to. */
  allows(text: string): boolean {
    return this.ruleAgainst(text) === null;
  }

  /**
   * The rule that forbids an IP address, as words ("the loopback range 127.0.0.0/8"), or null when it is
   * allowed. A text that is no IP address is refused too.
   */
  ruleAgainst(text: string): string | null {
    if (!ipaddr.isValid(text)) return 'no IP address';
    for (const address of candidates(ipaddr.process(text))) {
      const rule = FORBIDDEN.find(({ range }) => inRanges(address, [range]));
      if (rule && !inRanges(address, this.allowed)) return `the ${rule.kind} range ${rule.cidr}`;
    }
    return null;
  }
}

/** The address, and the IPv4 address an IPv6 one carries inside it (NAT64, 6to4), which is where it leads. */
function candidates(address: Address): Address[] {
  if (address.kind() === 'ipv4') return [address];
  const parts = (address as ipaddr.IPv6).parts;
  const embedded = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const [p0 = 0, p1 = 0, p2 = 0, , , , p6 = 0, p7 = 0] = parts;
  if (p0 === 0x64 && p1 === 0xff9b) return [address, embedded(p6, p7)];
  if (p0 === 0x2002) return [address, embedded(p1, p2)];
  return [address];
}

function inRanges(address: Address, ranges: Range[]): boolean {
  return ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
}
