import { checkProxy, type ProxyCheck } from '../browser/proxy-check';
import type { ProxySettings } from '../browser/settings';
import type { EgressPolicy } from '../core/egress-policy';
import { type PlaceOfIp, placeOfIp } from './geoip';

export interface ExitCheckOptions {
  proxy: ProxySettings;
  checkUrl: string;
  policy: EgressPolicy;
  timeoutMs: number;
}

/** A proxy check with where its exit IP is: country and city from the offline database, when it places it. */
export type PlacedProxyCheck = ProxyCheck & { place: PlaceOfIp | null };

/** Asks the check address for the exit IP through the proxy, then places it without asking anyone else. */
export async function checkExit(options: ExitCheckOptions): Promise<PlacedProxyCheck> {
  const check = await checkProxy(options);
  return { ...check, place: check.ok ? await placeOfIp(check.ip) : null };
}

/** The proxy check's answer: exit IP and time zone, plus country and city when the exit is placed. */
export function proxyCheckAnswer({ place, ...check }: PlacedProxyCheck) {
  if (!check.ok) return check;
  return {
    ...check,
    timezone: check.timezone ?? place?.timezone ?? null,
    country: place?.country ?? null,
    city: place?.city ?? null,
  };
}
