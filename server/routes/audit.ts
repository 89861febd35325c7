import type { AuditQuery } from '../../lib/api/inputs/leases';
import type { Queryable } from '../db/driver';
import { type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { listAuditRecords } from '../store/audit';

/** A page of the workspace's audit log as the query narrows it (the API's and the dashboard's). */
export function auditPage(db: Queryable, accountId: string, query: AuditQuery) {
  return listAuditRecords(db, accountId, {
    profileId: query.profile_id,
    member: query.member,
    since: query.since === undefined ? undefined : new Date(query.since),
    after: readCursor(query.cursor),
    limit: query.limit,
  });
}

export const auditRoutes: Route[] = [
  route('listAudit', async (c, { query, status }, { db }) => {
    return c.json(await auditPage(db, c.get('account').id, query), status);
  }),
];
