import type { Route } from '../http/route';
import { accountRoutes } from './account';
import { auditRoutes } from './audit';
import { automationRoutes } from './automation';
import { cookieRoutes } from './cookies';
import { eventRoutes } from './events';
import { helpRequestRoutes } from './help-requests';
import { profileSheetRoutes } from './profile-sheets';
import { profileRoutes } from './profiles';
import { proxyRoutes } from './proxies';
import { sessionRoutes } from './sessions';
import { usageRoutes } from './usage';
import { webhookRoutes } from './webhooks';
import { workspaceRoutes } from './workspace';

/** Every authenticated route, declared from the contract's endpoint table; a new resource is one line here. */
export const routes: Route[] = [
  ...accountRoutes,
  ...profileSheetRoutes,
  ...profileRoutes,
  ...cookieRoutes,
  ...proxyRoutes,
  ...sessionRoutes,
  ...automationRoutes,
  ...eventRoutes,
  ...webhookRoutes,
  ...helpRequestRoutes,
  ...workspaceRoutes,
  ...auditRoutes,
  ...usageRoutes,
];
