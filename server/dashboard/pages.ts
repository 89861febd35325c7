import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { PROJECT_ROOT } from '../core/config';
import type { AppEnv } from '../http/env';
import { pageHeaders } from '../http/page-headers';

/** Where `npm run build:dashboard` puts the pages (npm start and the tests build them). */
export const DASHBOARD_DIR = path.join(PROJECT_ROOT, '.output', 'dashboard');

/**
 * The dashboard's pages, as static files built by Vite, under the service's strict page headers (pageHeaders).
 * `/` leads there.
 */
export function dashboardPages(dir = DASHBOARD_DIR): Hono<AppEnv> {
  const pages = new Hono<AppEnv>();
  const headers = pageHeaders("'self'");
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
