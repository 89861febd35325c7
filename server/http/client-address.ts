import type { Context, MiddlewareHandler } from 'hono';
import ipaddr from 'ipaddr.js';
import type { TrustedProxies } from '../core/trusted-proxies';
import type { AppEnv } from './env';

/** Puts the client's address (see TrustedProxies) on the context, for logs and limits. */
export function resolveClientAddress(proxies: TrustedProxies): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const peer = c.env?.incoming?.socket?.remoteAddress;
    c.set('clientAddress', peer ? proxies.clientOf(peer, c.req.header('x-forwarded-for')) : 'unknown');
    return next();
  };
}

export function clientAddress(c: Context<AppEnv>): string {
  return c.get('clientAddress') ?? 'unknown';
}

/**
 * The client as the per-address limits count it: its IPv4 address, or the /64 its IPv6 address is in. One
 * subscriber is given a whole /64, so counted one by one its addresses would never run out.
 */
export function limitedClient(c: Context<AppEnv>): string {
  const address = clientAddress(c);
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}
