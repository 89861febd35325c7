import { NotFound } from '../core/domain-errors';
import { takeOver } from '../handoff/take-over';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { findHelpRequest, listHelpRequests } from '../store/help-requests';

/** Requests for a person: the account's (any other account's are not found), and the person's answer. */
export const helpRequestRoutes: Route[] = [
  route('listHelpRequests', async (c, { query, status }, { db }) => {
    const page = await listHelpRequests(db, c.get('account'), {
      status: query.status,
      limit: query.limit,
      after: readCursor(query.cursor),
    });
    return c.json(page, status);
  }),

  route('getHelpRequest', async (c, { params, status }, { db }) => {
    const request = await findHelpRequest(db, c.get('account'), params.id);
    if (!request) throw new NotFound('help request');
    return c.json(request, status);
  }),

  route('takeHelpRequest', async (c, { params, status }, { db }) =>
    c.json(await takeOver(db, c.get('account'), c.get('account').member, params.id), status),
  ),

  route('answerHelpRequest', async (c, { params, body, status }, { handoff }) =>
    c.json(await handoff.answer(c.get('account'), params.id, body), status),
  ),
];
