import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { listAuditRecords } from '../store/audit';

export const auditRoutes: Route[] = [
  route('listAudit', async (c, { query, status }, { db }) => {
    const page = await listAuditRecords(db, c.get('account').id, {
      profileId: query.profile_id,
      member: query.member,
      since: query.since === undefined ? undefined : new Date(query.since),
      after: readCursor(query.cursor),
      limit: query.limit,
    });
    return c.json(page, status);
  }),
];
