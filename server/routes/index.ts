import type { Hono } from 'hono';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/env';
import { accountRoutes } from './account';
import { automationRoutes } from './automation';
import { profileRoutes } from './profiles';
import { proxyRoutes } from './proxies';
import { sessionRoutes } from './sessions';

/** A resource's routes, with their full paths; mounted behind auth, rate limit and idempotency. */
export type RouteGroup = (deps: AppDeps) => Hono<AppEnv>;

/** Every authenticated route group. A new resource is one line here. */
export const routeGroups: RouteGroup[] = [
  accountRoutes,
  profileRoutes,
  proxyRoutes,
  sessionRoutes,
  automationRoutes,
];
