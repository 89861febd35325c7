import type { EndpointName } from '../../lib/api/endpoints';
import { mayCall, PERMISSIONS } from '../../lib/api/permissions';
import type { Account } from '../../lib/api/schemas/account';
import { HOURLY_LIMITS, sessionCap } from '../accounts/plans';
import { type Route, route } from '../http/route';

export const accountRoutes: Route[] = [
  route('getAccount', (c, { status }, { config }) => {
    const account = c.get('account');
    return c.json(
      {
        id: account.id,
        name: account.name,
        plan: account.plan,
        hourly_limit: HOURLY_LIMITS[account.plan],
        session_limit: sessionCap(account.plan, config.limits.enterpriseMaxSessions),
        key_prefix: account.key_prefix,
        created_at: account.created_at.toISOString(),
        member: account.member,
        role: account.role,
        scope: account.scope,
        may_not: (Object.keys(PERMISSIONS) as EndpointName[]).filter((name) => !mayCall(account.role, name)),
      } satisfies Account,
      status,
    );
  }),
];
