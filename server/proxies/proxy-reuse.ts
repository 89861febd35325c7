import { type ProxyParts, proxyLabel } from '../../lib/api/proxy-url';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';
import { insertProxies, proxyAddresses } from '../store/proxies';

/**
 * The saved proxy of the account for each of `wanted`, in order: one that says the same (scheme, host, port, user
 * name and password), else one saved now, once however often it is wanted. Also the proxies saved.
 */
export async function savedProxiesFor(
  tx: Queryable,
  clock: Clock,
  accountId: string,
  wanted: ProxyParts[],
): Promise<{ ids: string[]; created: ProxyConfig[] }> {
  if (wanted.length === 0) return { ids: [], created: [] };
  const saved = new Map((await proxyAddresses(tx, accountId)).map((proxy) => [sameness(proxy), proxy.id]));
  const missing = new Map<string, ProxyParts & { name: string }>();
  for (const parts of wanted) {
    const key = sameness(parts);
    if (!saved.has(key)) missing.set(key, { ...parts, name: proxyLabel(parts) });
  }
  const created = await insertProxies(tx, clock, accountId, [...missing.values()]);
  for (const [index, key] of [...missing.keys()].entries()) saved.set(key, created[index]?.id as string);
  return { ids: wanted.map((parts) => saved.get(sameness(parts)) as string), created };
}

/** A proxy as one address: a saved one and a pasted line that say the same are the same proxy. */
function sameness(p: ProxyParts): string {
  return JSON.stringify([p.scheme, p.host.toLowerCase(), p.port, p.username ?? null, p.password ?? null]);
}
