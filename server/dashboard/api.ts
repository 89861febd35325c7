import { Hono } from 'hono';
import { clientAddress } from '../http/client-address';
import type { AppDeps } from '../http/deps';
import type { AppEnv } from '../http/env';
import { takeTurns } from '../http/request-turns';
import { ServedNames } from '../http/served-names';
import { accountHandlers } from './account-handlers';
import { noApiKeys, noStore, sameOriginOnly } from './guards';
import { joinHandlers } from './join-handlers';
import { keyHandlers } from './key-handlers';
import { memberHandlers } from './member-handlers';
import { registerDashboardEndpoints } from './route';
import { sessionHandlers } from './session-handlers';
import { signInHandlers } from './sign-in-handlers';

/**
 * The dashboard's own JSON endpoints under /dashboard/api, declared in endpoints.ts: sign-up, sign-in and out,
 * joining by an invitation's link, the workspace's keys, members and audit log, its running sessions, its usage, its password and its deletion. Not part of the /v1 API:
 * they take the sign-in cookie, never a key, from the dashboard's own pages only, and no cache keeps an answer.
 */
export function dashboardApi(deps: AppDeps): Hono<AppEnv> {
  const api = new Hono<AppEnv>();
  api.use('*', noApiKeys(), sameOriginOnly(new ServedNames(deps.config), deps.config.port), noStore());
  api.use(
    '*',
    takeTurns(deps.turns, (c) => `address ${clientAddress(c)}`),
  );
  registerDashboardEndpoints(api, deps, {
    ...signInHandlers,
    ...joinHandlers,
    ...keyHandlers,
    ...memberHandlers,
    ...accountHandlers,
    ...sessionHandlers,
  });
  return api;
}
