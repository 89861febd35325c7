import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { httpRequestSeconds } from '../core/metrics';
import type { AppEnv } from './env';

/** Times each request under its route's pattern (never the raw path, which would make a series per id). */
export function measureRequests(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const end = httpRequestSeconds.startTimer();
    await next();
    end({ method: c.req.method, route: routePath(c), status: c.res.status });
  };
}
