import type { Hono, NotFoundHandler } from 'hono';
import type { AppEnv } from './env';
import { problemResponse } from './problem';

/**
 * Answers a request no route took: 405 with `Allow` when the path exists with other methods, else 404.
 * The methods come from the routes registered on the app, so route groups added later are covered too.
 */
export function notFoundOrMethodNotAllowed(app: Hono<AppEnv>): NotFoundHandler<AppEnv> {
  return (c) => {
    const allowed = allowedMethods(app, c.req.path);
    if (allowed.length > 0) {
      return problemResponse({
        status: 405,
        code: 'method_not_allowed',
        detail: `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(' or ')}.`,
        headers: { Allow: allowed.join(', ') },
      });
    }
    return problemResponse({ status: 404, code: 'not_found', detail: `There is nothing at ${c.req.path}.` });
  };
}

function allowedMethods(app: Hono<AppEnv>, path: string): string[] {
  const methods = new Set<string>();
  for (const route of app.routes) {
    if (route.method === 'ALL' || route.path.includes('*')) continue;
    if (patternOf(route.path).test(path)) methods.add(route.method);
  }
  return [...methods].sort();
}

function patternOf(routePath: string): RegExp {
  const source = routePath
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}
