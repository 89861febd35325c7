import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { PROJECT_ROOT } from '../core/config';
import type { AppEnv } from '../http/env';

/** Where `npm run build:dashboard` puts the pages (npm start and the tests build them). */
export const DASHBOARD_DIR = path.join(PROJECT_ROOT, '.output', 'dashboard');

/**
 * The dashboard's pages, as static files built by Vite, under a strict Content-Security-Policy: scripts, styles
 * and requests from this origin only, no inline script or style, no framing, no plugins. `/` leads there.
 */
export function dashboardPages(dir = DASHBOARD_DIR): Hono<AppEnv> {
  const pages = new Hono<AppEnv>();
  const headers = secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      // data: for the sessions' pictures, read with the sign-in cookie and shown inline.
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
    referrerPolicy: 'no-referrer',
    xFrameOptions: 'DENY',
    // HSTS belongs to whatever serves https in front of the service; over plain http it means nothing.
    strictTransportSecurity: false,
  });
  pages.use('/dashboard', headers);
  pages.use('/dashboard/*', headers);
  pages.get('/', (c) => c.redirect('/dashboard', 302));
  // Made once the pages are built: serveStatic writes a warning to stderr, not a log line, if its root is missing.
  let assets: MiddlewareHandler<AppEnv> | null = null;
  pages.get('/dashboard/assets/*', async (c, next) => {
    if (!assets && !existsSync(dir)) return c.notFound();
    assets ??= serveStatic({
      root: dir,
      rewriteRequestPath: (requested) => requested.slice('/dashboard'.length),
    });
    const found = await assets(c, next);
    if (!(found instanceof Response)) return c.res;
    // File names carry their content's hash: they never change.
    found.headers.set('Cache-Control', 'public, max-age=31536000, immutable');
    return found;
  });
  const index = async (c: Context<AppEnv>) => {
    const html = await readFile(path.join(dir, 'index.html'), 'utf8').catch(() => null);
    if (html === null) {
      return c.text(
        'The dashboard is not built on this service: run npm run build:dashboard, then reload.',
        503,
      );
    }
    c.header('Cache-Control', 'no-cache');
    return c.html(html);
  };
  pages.get('/dashboard', index);
  pages.get('/dashboard/', index);
  return pages;
}
