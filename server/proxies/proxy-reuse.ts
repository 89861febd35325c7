import { type ProxyParts, proxyLabel } from '../../lib/api/proxy-url';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import { PROXY_CAPS } from '../accounts/plans';
import type { Clock } from '../core/clock';
import { Conflict } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import { insertProxies, lockProxyCount, proxyAddresses } from '../store/proxies';

/** A saved proxy a wanted one became: found (said the same) or saved now. */
export interface ReusedProxy {
  id: string;
  name: string;
  created: boolean;
}

/**
 * The saved proxy of the account for each of `wanted`, in order: one that says the same (scheme, host, port, user
 * name and password), else one saved now, once however often it is wanted. Also the proxies saved. Beyond the
 * plan's cap on saved proxies nothing is saved, and the whole is refused.
 */
export async function savedProxiesFor(
  tx: Queryable,
  clock: Clock,
  accountId: string,
  wanted: ProxyParts[],
): Promise<{ proxies: ReusedProxy[]; created: ProxyConfig[] }> {
  if (wanted.length === 0) return { proxies: [], created: [] };
  const saved = new Map<string, ReusedProxy>();
  for (const proxy of await proxyAddresses(tx, accountId))
    saved.set(sameness(proxy), { id: proxy.id, name: proxy.name, created: false });
  const missing = new Map<string, ProxyParts & { name: string }>();
  for (const parts of wanted) {
    const key = sameness(parts);
    if (!saved.has(key)) missing.set(key, { ...parts, name: proxyLabel(parts) });
  }
  await requireProxyRoom(tx, accountId, missing.size);
  const created = await insertProxies(tx, clock, accountId, [...missing.values()]);
  for (const [index, key] of [...missing.keys()].entries()) {
    const proxy = created[index] as ProxyConfig;
    saved.set(key, { id: proxy.id, name: proxy.name, created: true });
  }
  // A proxy wanted twice is saved by the first and found by the second.
  const seen = new Set<string>();
  const proxies = wanted.map((parts) => {
    const key = sameness(parts);
    const proxy = saved.get(key) as ReusedProxy;
    const first = !seen.has(key);
    seen.add(key);
    return { ...proxy, created: proxy.created && first };
  });
  return { proxies, created };
}

/** Refuses to save `adding` more proxies where the account's plan keeps fewer; its row stays locked. */
export async function requireProxyRoom(tx: Queryable, accountId: string, adding: number): Promise<void> {
  if (adding === 0) return;
  const { plan, count } = await lockProxyCount(tx, accountId);
  const cap = PROXY_CAPS[plan];
  if (cap === null || count + adding <= cap) return;
  const room = Math.max(0, cap - count);
  throw new Conflict(
    'proxy_limit',
    `The ${plan} plan keeps at most ${cap.toLocaleString('en')} saved proxies; this account has ${count.toLocaleString('en')}, so ${room.toLocaleString('en')} more fit, not ${adding.toLocaleString('en')}. Delete proxies no profile uses, or upgrade.`,
  );
}

/** A proxy as one address: a saved one and a pasted line that say the same are the same proxy. */
function sameness(p: ProxyParts): string {
  return JSON.stringify([p.scheme, p.host.toLowerCase(), p.port, p.username ?? null, p.password ?? null]);
}
