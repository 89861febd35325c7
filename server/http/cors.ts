import { cors } from 'hono/cors';
import { RATE_LIMIT_HEADERS } from './rate-limit';

// The extension's pages and worker call the service from their own origin; web pages get no CORS access.
const EXTENSION_ORIGIN = /^(chrome-extension|moz-extension|safari-web-extension):\/\/[A-Za-z0-9.-]+$/;

/** CORS for browser-extension origins; preflights are answered here, before any key is asked for. */
export function extensionCors() {
  return cors({
    origin: (origin) => (EXTENSION_ORIGIN.test(origin) ? origin : null),
    allowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
    exposeHeaders: [...RATE_LIMIT_HEADERS, 'Location', 'Idempotent-Replayed'],
    maxAge: 600,
  });
}
