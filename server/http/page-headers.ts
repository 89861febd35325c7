import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';

/**
 * The headers of a page the service serves itself (the dashboard, the live view): a strict Content-Security-Policy
 * (scripts, styles, pictures and requests from this origin only, data: pictures for those read with the page's
 * credential and shown inline, no inline script or style, no framing, no plugins) and no referrer. `forms` is where
 * a form on the page may post: the dashboard's to itself, the live view has none.
 */
export function pageHeaders(forms: "'self'" | "'none'"): MiddlewareHandler {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: [forms],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    // HSTS belongs to whatever serves https in front of the service; over plain http it means nothing.
    strictTransportSecurity: false,
  });
}
