import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Hono } from 'hono';
import { PROJECT_ROOT } from '../core/config';
import type { Queryable } from '../db/driver';
import type { AppEnv } from '../http/env';
import { pageHeaders } from '../http/page-headers';
import { isSessionRunning } from '../live/live-sessions';
import type { LiveTokens } from '../live/live-tokens';

const PAGE_DIR = path.join(PROJECT_ROOT, 'server', 'live', 'page');
const read = (name: string) => readFileSync(path.join(PAGE_DIR, name), 'utf8');
/** The page's script, and the modules it imports. */
const SCRIPTS = ['viewer.js', 'viewer-input.js', 'viewer-help.js'];

const NOT_OPEN =
  'There is no running session at this live view address, or its token has expired; ask the session again for its live_view_url.';

/**
 * The live view's page, `/live/<session>/<token>`: plain HTML with one script (and the modules it imports) and
 * one style sheet of this origin, no framing, no referrer (the address is the credential). Any node serves it;
 * its WebSocket finds the node that runs the session.
 */
export function livePages(deps: { db: Queryable; tokens: LiveTokens }): Hono<AppEnv> {
  const files = { html: read('viewer.html'), style: read('viewer.css') };
  const pages = new Hono<AppEnv>();
  pages.use('/live/*', pageHeaders("'none'"));
  for (const name of SCRIPTS) {
    const script = read(name);
    pages.get(`/live/${name}`, (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.body(script, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
    });
  }
  pages.get('/live/viewer.css', (c) => {
    c.header('Cache-Control', 'no-cache');
    return c.body(files.style, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });
  pages.get('/live/:session/:token', async (c) => {
    c.header('Cache-Control', 'no-store');
    const address = deps.tokens.addressOf(new URL(c.req.url).pathname);
    if (address === null || !(await isSessionRunning(deps.db, address.sessionId)))
      return c.text(NOT_OPEN, 404);
    return c.html(files.html);
  });
  return pages;
}
