import { type Context, Hono } from 'hono';
import { PageCallInput } from '../../lib/api/inputs/page-tools';
import { CookieList } from '../../lib/api/schemas/cookies';
import { StopReason } from '../../lib/api/schemas/sessions';
import { z } from '../../lib/api/zod';
import type { RunScheduler } from '../automation/scheduler';
import { isNodeAuth, NODE_AUTH_HEADER } from '../cluster/peers';
import type { ProfileCookies } from '../cookies/profile-cookies';
import { toWire } from '../core/domain-errors';
import type { Database } from '../db/driver';
import type { AppEnv } from '../http/env';
import { nothingHere } from '../http/fallback';
import type { SessionGlance } from '../live/session-glance';
import type { AgentPages } from '../pages/agent-pages';
import type { SessionManager } from '../sessions/manager';
import { sessionOf } from '../sessions/session-of';
import { everything } from '../store/scope';
import { findSession } from '../store/sessions';

const Holder = z.object({ id: z.string(), name: z.string() });
const StartHere = z.object({
  account_id: z.string(),
  profile_id: z.string(),
  holder: Holder,
  headless: z.boolean(),
});
const StopHere = z.object({ account_id: z.string(), reason: StopReason });
const CancelHere = z.object({ account_id: z.string() });
const PageHere = z.object({ account_id: z.string(), call: PageCallInput });
const GlanceHere = z.object({ account_id: z.string(), what: z.enum(['page', 'thumbnail']) });
const CookiesHere = z.object({
  account_id: z.string(),
  change: z.nullable(z.object({ cookies: CookieList, replace: z.boolean() })),
  holder: Holder,
});

/**
 * What one node asks of another (peers.ts): start a session here, stop or cancel what runs here, act on a page of a session here (an agent's page tool). Only nodes
 * know the key (derived from the secret in the shared database); to anyone else these paths do not exist.
 */
export function internalRoutes(deps: {
  db: Database;
  sessions: SessionManager;
  automation: RunScheduler;
  cookies: ProfileCookies;
  pages: AgentPages;
  glance: SessionGlance;
  nodeAuthKey: string;
}): Hono<AppEnv> {
  const { db, sessions, automation, cookies, pages, glance, nodeAuthKey } = deps;
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    // Not the app's not-found answer: that one names the methods a path takes, telling these paths exist.
    if (!isNodeAuth(c.req.header(NODE_AUTH_HEADER), nodeAuthKey)) return nothingHere(c.req.path);
    return next();
  });
  app.post(
    '/sessions',
    answering(async (c) => {
      const body = StartHere.parse(await c.req.json());
      const row = await sessions.startHere(body.account_id, body.profile_id, body.holder, body.headless);
      return c.json({ session_id: row.id }, 201);
    }),
  );
  app.post(
    '/sessions/:id/stop',
    answering(async (c) => {
      const body = StopHere.parse(await c.req.json());
      const row = await findSession(db, everything(body.account_id), c.req.param('id') ?? '');
      if (row) await sessions.stop(row, body.reason);
      return c.json({});
    }),
  );
  app.post(
    '/sessions/:id/page',
    answering(async (c) => {
      const { account_id, call } = PageHere.parse(await c.req.json());
      const row = await sessionOf(db, everything(account_id), c.req.param('id') ?? '');
      return c.json({ answer: await pages.callHere(row, call) });
    }),
  );
  app.post(
    '/sessions/:id/glance',
    answering(async (c) => {
      const { account_id, what } = GlanceHere.parse(await c.req.json());
      const row = await sessionOf(db, everything(account_id), c.req.param('id') ?? '');
      if (what === 'page') return c.json({ answer: await glance.currentPage(row) });
      const picture = await glance.thumbnail(row);
      return c.json({ answer: picture && Buffer.from(picture).toString('base64') });
    }),
  );
  app.post(
    '/profiles/:id/cookies',
    answering(async (c) => {
      const { account_id, change, holder } = CookiesHere.parse(await c.req.json());
      const profileId = c.req.param('id') ?? '';
      const answer = change
        ? await cookies.write(everything(account_id), profileId, holder, change.cookies, change.replace)
        : await cookies.read(everything(account_id), profileId, holder);
      return c.json({ answer });
    }),
  );
  app.post(
    '/runs/:id/cancel',
    answering(async (c) => {
      const body = CancelHere.parse(await c.req.json());
      await automation.cancel(everything(body.account_id), c.req.param('id') ?? '');
      return c.json({});
    }),
  );
  return app;
}

/** A refusal (a domain error) goes back whole, for the asking node to answer its client with. */
function answering(handler: (c: Context<AppEnv>) => Promise<Response>) {
  return async (c: Context<AppEnv>) => {
    try {
      return await handler(c);
    } catch (error) {
      const wire = toWire(error);
      if (!wire) throw error;
      return c.json({ error: wire }, wire.status as 404);
    }
  };
}
