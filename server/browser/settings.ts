import type { Fingerprint } from '../../lib/api/inputs/profiles';
import type { ProxyParts } from '../../lib/api/proxy-url';

/** The profile's proxy, password included, as the contract parses a proxy URL. */
export type ProxySettings = ProxyParts;

export type FingerprintSettings = Fingerprint;
