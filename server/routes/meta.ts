import { Hono } from 'hono';
import type { AppDeps } from '../http/deps';
import type { AppEnv } from '../http/env';
import { buildOpenApiDocument } from '../http/openapi';
import type { Route } from '../http/route';

/** Public routes, answered without a key and not counted against any limit. */
export function metaRoutes({ config }: AppDeps, documented: Route[]): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  let openapi: string | undefined;

  routes.get('/v1/openapi.json', (c) => {
    openapi ??= JSON.stringify(buildOpenApiDocument(config.version, documented));
    return c.body(openapi, 200, { 'Content-Type': 'application/json' });
  });

  return routes;
}
