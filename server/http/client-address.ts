import type { Context, MiddlewareHandler } from 'hono';
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
