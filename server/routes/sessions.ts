import { Readable } from 'node:stream';
import type { Context } from 'hono';
import { NotFound } from '../core/domain-errors';
import { attachmentHeaders } from '../downloads/attachment';
import { downloadsOfSession, openSessionDownload } from '../downloads/session-downloads';
import type { AppEnv } from '../http/env';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { thumbnailOf, viewingRows, withCurrentPage } from '../live/session-glance';
import { requireInScope } from '../profiles/in-scope';
import { startInLine } from '../queue/start-in-line';
import { sessionOf } from '../sessions/session-of';
import { findSession, findSessionOfProfile, listSessions } from '../store/sessions';

export const sessionRoutes: Route[] = [
  route('listSessions', async (c, { query, status }, { db, sessions, glance }) => {
    const origin = originOf(c);
    const rows = viewingRows(glance, (row) => sessions.view(row, origin));
    const page = await listSessions(
      db,
      c.get('account'),
      { limit: query.limit, after: readCursor(query.cursor), status: query.status },
      rows.view,
    );
    return c.json({ ...page, data: await rows.withPages(page.data) }, status);
  }),

  route('getSession', async (c, { params, status }, { db, sessions, glance }) => {
    const row = await sessionOf(db, c.get('account'), params.id);
    return c.json(await withCurrentPage(glance, row, sessions.view(row, originOf(c))), status);
  }),

  route('getSessionThumbnail', async (c, { params, status }, { db, glance }) => {
    const picture = await thumbnailOf({ db, glance }, c.get('account'), params.id);
    return c.body(new Uint8Array(picture), status, {
      'Content-Type': 'image/jpeg',
      'Cache-Control': 'private, max-age=5',
    });
  }),

  route('listSessionDownloads', async (c, { params, status }, { db, config }) => {
    const data = await downloadsOfSession(config.dataDir, await sessionOf(db, c.get('account'), params.id));
    return c.json({ data }, status);
  }),

  route('getSessionDownload', async (c, { params, status }, { db, config }) => {
    const session = await sessionOf(db, c.get('account'), params.id);
    const file = await openSessionDownload(config.dataDir, session, params.fileId);
    const stream = Readable.toWeb(file.open()) as ReadableStream<Uint8Array>;
    return c.body(stream, status, attachmentHeaders(file.download));
  }),

  route(
    'startSession',
    async (c, { body, status }, deps) => {
      const account = c.get('account');
      await requireInScope(deps.db, account, body.profile_id);
      const start = { accountId: account.id, profileId: body.profile_id, holder: account.member };
      const outcome = body.wait
        ? await startInLine(deps, { ...start, headless: body.headless }, body.wait * 1000, c.req.raw.signal)
        : {
            session: await deps.sessions.start(start.accountId, start.profileId, start.holder, body.headless),
          };
      if ('waiting' in outcome) {
        const detail = `No room for a browser came within ${body.wait} s; the start waits in line and its session starts once there is room.`;
        return c.json({ profile_id: body.profile_id, status: 'waiting' as const, detail }, 202, {
          Location: `/v1/profiles/${body.profile_id}`,
        });
      }
      const row = outcome.session;
      return c.json(deps.sessions.view(row, originOf(c)), status, { Location: `/v1/sessions/${row.id}` });
    },
    { alsoAnswers: ['startSessionInLine'] },
  ),

  // `?session_id=` or `?profile_id=`, or the same field in a JSON body.
  route(
    'stopSession',
    async (c, { query, status }, { db, sessions }) => {
      const reader = c.get('account');
      if (query.profile_id) await requireInScope(db, reader, query.profile_id);
      const row = query.session_id
        ? await findSession(db, reader, query.session_id)
        : await findSessionOfProfile(db, reader.id, query.profile_id as string);
      if (!row) throw new NotFound(query.session_id ? 'session' : 'session for this profile');
      return c.json(await sessions.stop(row, 'user'), status);
    },
    { queryOrBody: true },
  ),
];

/** Where the client reached the service: the `cdp_url` it is given points there too. */
function originOf(c: Context<AppEnv>): string {
  return new URL(c.req.url).origin;
}
