import { readBatches } from '../automation/batches';
import { readCursor } from '../http/validate';
import { thumbnailOf, viewingRows } from '../live/session-glance';
import { sessionOf } from '../sessions/session-of';
import { listSessions } from '../store/sessions';
import type { DashboardHandlers } from './route';

/** The signed-in account's running sessions: what each is doing, a picture of it, and Stop; and its batches. */
export const sessionHandlers: DashboardHandlers<
  'listRunningSessions' | 'getSessionThumbnail' | 'stopSession' | 'listBatches'
> = {
  // Read like GET /v1/sessions?status=running, with each session's live view addresses made for this origin.
  async listRunningSessions(c, { account }, { db, sessions, glance }) {
    const origin = new URL(c.req.url).origin;
    const filter = { limit: 100, after: null, status: 'running' as const };
    const rows = viewingRows(glance, (row) => sessions.view(row, origin));
    const page = await listSessions(db, account, filter, rows.view);
    return { data: await rows.withPages(page.data) };
  },

  async getSessionThumbnail(_c, { account, params }, deps) {
    const picture = await thumbnailOf(deps, account, params.id);
    return { image: `data:image/jpeg;base64,${Buffer.from(picture).toString('base64')}` };
  },

  // Read as GET /v1/automation/batches: fifty a page, newest first.
  listBatches: (c, { account }, deps) =>
    readBatches(deps, account, { limit: 50, after: readCursor(c.req.query('cursor')) }),

  async stopSession(_c, { account, params }, { db, sessions }) {
    const row = await sessionOf(db, account, params.id);
    return sessions.stop(row, 'user');
  },
};
