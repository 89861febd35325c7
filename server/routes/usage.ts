import { HOURLY_LIMITS } from '../accounts/plans';
import { type Route, route } from '../http/route';
import { requestsInHour, requestsPerKey, requestsPerMember } from '../store/usage';

export const usageRoutes: Route[] = [
  route('getUsage', async (c, { query, status }, { db, clock }) => {
    const { id, plan } = c.get('account');
    const nowMs = clock.now().getTime();
    const perRow = query.by === 'key' ? requestsPerKey : requestsPerMember;
    const [used, data] = await Promise.all([requestsInHour(db, id, nowMs), perRow(db, id, nowMs)]);
    return c.json({ by: query.by, plan, limit: HOURLY_LIMITS[plan], used, data }, status);
  }),
];
