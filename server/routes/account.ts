import { Hono } from 'hono';
import type { Account } from '../../lib/api/schemas/account';
import { HOURLY_LIMITS } from '../accounts/plans';
import type { AppEnv } from '../http/env';

export function accountRoutes(): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/v1/account', (c) => {
    const account = c.get('account');
    return c.json({
      id: account.id,
      name: account.name,
      plan: account.plan,
      hourly_limit: HOURLY_LIMITS[account.plan],
      key_prefix: account.key_prefix,
      created_at: account.created_at.toISOString(),
    } satisfies Account);
  });
  return routes;
}
