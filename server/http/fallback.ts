import type { Context, Hono, MiddlewareHandler, NotFoundHandler } from 'hono';
import type { AppEnv } from './env';
import { problemResponse } from './problem';

/**
 * Answers a request no route took: 405 with `Allow` when the path exists with other methods, else 404.
 * The methods come from the routes registered on the app, so route groups added later are covered too.
 */
export function notFoundOrMethodNotAllowed(app: Hono<AppEnv>): NotFoundHandler<AppEnv> {
  const routes = routeTable(app);
  return (c) => {
    const allowed = allowedMethods(routes(), c.req.path);
    if (allowed.length > 0) return methodNotAllowed(c, allowed);
    return nothingHere(c.req.path);
  };
}

/** The 404 of a path where nothing is, for this caller. */
export function nothingHere(path: string): Response {
  return problemResponse({ status: 404, code: 'not_found', detail: `There is nothing at ${path}.` });
}

/**
 * 405 with `Allow` for a path that is a route of its own, asked with another method, before a route with a
 * parameter in that place takes it: `GET /v1/sessions/start` is not a read of a session with the id "start".
 * Registered ahead of the route groups; a path no fixed route names goes on to them.
 */
export function methodNotAllowedOnFixedPaths(app: Hono<AppEnv>): MiddlewareHandler<AppEnv> {
  const routes = routeTable(app);
  // A fixed route's pattern matches its own path only (with or without a slash at the end): one lookup per request.
  let fixedPaths: Map<string, string[]> | undefined;
  return async (c, next) => {
    fixedPaths ??= methodsOfFixedPaths(routes());
    const allowed = fixedPaths.get(withoutEndSlash(c.req.path));
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    if (!allowed || allowed.includes(method)) return next();
    return methodNotAllowed(c, allowed);
  };
}

function methodsOfFixedPaths(routes: RouteEntry[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const route of routes.filter((entry) => entry.fixed)) {
    const path = withoutEndSlash(route.path);
    byPath.set(path, [...new Set([...(byPath.get(path) ?? []), route.method])].sort());
  }
  return byPath;
}

function withoutEndSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function methodNotAllowed(c: Context<AppEnv>, allowed: string[]): Response {
  return problemResponse({
    status: 405,
    code: 'method_not_allowed',
    detail: `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(' or ')}.`,
    headers: { Allow: allowed.join(', ') },
  });
}

interface RouteEntry {
  method: string;
  path: string;
  pattern: RegExp;
  /** No parameter in the path: `/v1/sessions/start`, not `/v1/sessions/:id`. */
  fixed: boolean;
}

/** The app's routes, read once the app is complete (at the first request), for matching paths. */
function routeTable(app: Hono<AppEnv>): () => RouteEntry[] {
  let table: RouteEntry[] | undefined;
  return () => {
    table ??= app.routes
      .filter((route) => route.method !== 'ALL' && !route.path.includes('*'))
      .map((route) => ({
        method: route.method,
        path: route.path,
        pattern: patternOf(route.path),
        fixed: !route.path.includes(':'),
      }));
    return table;
  };
}

/** The methods of `path`: those of the fixed routes naming it when there are any, else of every route matching it. */
function allowedMethods(routes: RouteEntry[], path: string): string[] {
  const matching = routes.filter((route) => route.pattern.test(path));
  const fixed = matching.filter((route) => route.fixed);
  return [...new Set((fixed.length > 0 ? fixed : matching).map((route) => route.method))].sort();
}

function patternOf(routePath: string): RegExp {
  const source = routePath
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}
