import { Hono } from 'hono';
import { dashboardApi } from '../dashboard/api';
import { dashboardPages } from '../dashboard/pages';
import { authenticate } from '../http/auth';
import { resolveClientAddress } from '../http/client-address';
import { extensionCors } from '../http/cors';
import type { AppDeps } from '../http/deps';
import type { AppEnv } from '../http/env';
import { handleErrors } from '../http/errors';
import { methodNotAllowedOnFixedPaths, notFoundOrMethodNotAllowed } from '../http/fallback';
import { idempotency } from '../http/idempotency';
import { accountRateLimit } from '../http/rate-limit';
import { requestLog } from '../http/request-log';
import { measureRequests } from '../http/request-metrics';
import { takeTurns } from '../http/request-turns';
import type { Route } from '../http/route';
import { takeStreamSlot } from '../http/stream-slot';
import { refuseNulInPath } from '../http/validate';
import { MCP_PATH, mcpEndpoint } from '../mcp/endpoint';
import { healthRoutes } from '../routes/health';
import { routes as contractRoutes } from '../routes/index';
import { internalRoutes } from '../routes/internal';
import { livePages } from '../routes/live-pages';
import { metaRoutes } from '../routes/meta';
import { metricsRoutes } from '../routes/metrics';

/**
 * The HTTP app: the v1 routes declared from the contract (routes/index.ts) behind request logs, CORS,
 * authentication and the plan's rate limit (each idempotent endpoint takes its Idempotency-Key), with problem-details errors and 404/405 answers (a
 * fixed path such as /v1/sessions/start is never taken for an `:id`; U+0000 in a path is 422), and the
 * dashboard (its pages and its cookie-only endpoints, outside /v1), and the MCP endpoint for agents (/v1/mcp). `extra` mounts
 * routes outside the contract, for tests of these seams.
 */
export function createApp(
  deps: AppDeps,
  routes: Route[] = contractRoutes,
  extra?: Hono<AppEnv>,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', resolveClientAddress(deps.config.trustProxy));
  if (deps.config.metricsToken !== null) app.use('*', measureRequests());
  if (deps.tracing) app.use('*', deps.tracing.traceRequests);
  app.use('*', requestLog(deps.log));
  app.use('*', extensionCors());
  app.route('/', metaRoutes(deps, routes));
  app.route('/', healthRoutes(deps));
  app.route('/', metricsRoutes(deps));
  app.route('/', dashboardPages());
  app.route('/dashboard/api', dashboardApi(deps));
  app.route('/internal', internalRoutes(deps));
  app.route('/', livePages({ db: deps.db, tokens: deps.liveTokens }));
  app.use('/v1/*', authenticate(deps.db, deps.clock, deps.keyCache, deps.keyUses));
  app.use(
    '/v1/*',
    takeTurns(deps.turns, (c) => c.get('account').id),
  );
  app.use('/v1/events', takeStreamSlot(deps.streams));
  app.use('/v1/*', accountRateLimit(deps.db, deps.clock, deps.usageTally, MCP_PATH));
  app.use('/v1/*', methodNotAllowedOnFixedPaths(app));
  app.use('/v1/*', refuseNulInPath());
  for (const declared of routes) declared.register(app, deps);
  app.route('/', mcpEndpoint(deps));
  if (extra) {
    // Routes outside the table take Idempotency-Key on every POST, as the table's idempotent endpoints do.
    app.on('POST', '/v1/*', idempotency(deps.db, deps.clock));
    app.route('/', extra);
  }
  app.notFound(notFoundOrMethodNotAllowed(app));
  app.onError(handleErrors(deps.log));
  return app;
}
