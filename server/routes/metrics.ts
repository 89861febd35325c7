import { timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { registry } from '../core/metrics';
import type { AppDeps } from '../http/deps';
import type { AppEnv } from '../http/env';
import { problemResponse } from '../http/problem';
import { scrapeMetrics } from '../metrics/scrape';

/** /metrics in Prometheus text for the bearer of METRICS_TOKEN; without one it is not served (404). */
export function metricsRoutes({ config, db, nodeId }: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const token = config.metricsToken;
  if (token === null) return routes;
  routes.get('/metrics', async (c) => {
    if (!bearerIs(c.req.header('Authorization'), token))
      return problemResponse({
        status: 401,
        code: 'unauthorized',
        detail:
          'The metrics need the token the operator set as METRICS_TOKEN, sent as "Authorization: Bearer <token>".',
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      });
    return c.body(await scrapeMetrics(db, nodeId), 200, { 'Content-Type': registry.contentType });
  });
  return routes;
}

function bearerIs(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
