import type { MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { RATE_LIMIT_HEADERS } from './rate-limit';

// The extension's pages and worker call the service from their own origin; web pages get no CORS access.
const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension|safari-web-extension):\/\/[A-Za-z0-9.-]+$/;
const EXPOSED_HEADERS = [...RATE_LIMIT_HEADERS, 'Location', 'Idempotent-Replayed'];
const EXPOSED_HEADERS_VALUE = EXPOSED_HEADERS.join(',');

const allowedOrigin = (origin: string) => (EXTENSION_ORIGIN.test(origin) ? origin : null);

/**
 * CORS for browser-extension origins; preflights are answered here, before any key is asked for. Other
 * requests get their headers on the answer once it is made: Hono's `cors()` sets them on a response made
 * before the route's, which Hono then copies, body and all, into a new one, twice a request.
 */
export function extensionCors(): MiddlewareHandler {
  const preflight = cors({
    origin: allowedOrigin,
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    await next();
    const { headers } = c.res;
    const origin = allowedOrigin(c.req.header('origin') ?? '');
    if (origin) headers.set('Access-Control-Allow-Origin', origin);
    headers.set('Access-Control-Expose-Headers', EXPOSED_HEADERS_VALUE);
    headers.append('Vary', 'Origin');
  };
}
