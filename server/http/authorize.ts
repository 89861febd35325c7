import type { MiddlewareHandler } from 'hono';
import type { EndpointName } from '../../lib/api/endpoints';
import { mustMay } from '../accounts/permit';
import type { AppEnv } from './env';

/** Refuses, before anything else of the route runs, a key whose role may not call the endpoint (permissions.ts). */
export function authorize(endpoint: EndpointName): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    mustMay(c.get('account').role, endpoint);
    return next();
  };
}
