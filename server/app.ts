import { Hono } from 'hono';
import type { AppDeps } from './deps';
import { authenticate } from './http/auth';
import { extensionCors } from './http/cors';
import type { AppEnv } from './http/env';
import { handleErrors } from './http/errors';
import { methodNotAllowedOnFixedPaths, notFoundOrMethodNotAllowed } from './http/fallback';
import { idempotency, maintainIdempotencyRecords } from './http/idempotency';
import { accountRateLimit } from './http/rate-limit';
import { requestLog } from './http/request-log';
import { refuseNulInPath } from './http/validate';
import { type RouteGroup, routeGroups } from './routes/index';
import { metaRoutes } from './routes/meta';

/**
 * The HTTP app of the service. Seams for the parts that plug into it:
 *
 * - Route groups: a `(deps) => Hono<AppEnv>` with full paths, added to `routeGroups` in routes/index.ts. Its
 *   routes get auth (`c.get('account')`), the plan's rate limit, Idempotency-Key on every POST, problem-details
 *   errors, 404/405 with `Allow` (a fixed path such as /v1/sessions/start is never taken for an `:id`), 422 for
 *   U+0000 in the path, and CORS.
 * - In a route: `readJsonBody(c, Schema)`, `readQuery(c, Schema)`, `readCursor(query.cursor)` (http/validate.ts);
 *   throw `ProblemError` or `notFound('session')` (http/problem.ts); for a create whose writes share one
 *   transaction, `recordAnswer(c, tx, answer)` inside it and `sendAnswer(c, answer)` after (http/idempotency.ts).
 * - `deps.lifecycle`: `onStart` hooks run after migrations and before the port opens (reconcile sessions and
 *   runs there), `onShutdown` hooks after it closes and before the database does (stop browsers there);
 *   `shutdownSignal` aborts when shutdown begins (end long polls on it).
 * - `deps.sessions` (browsers per profile), `deps.automation` (the run queue), `deps.runEvents` (long-poll
 *   wake-ups): the session layer of sessions/layer.ts. DELETE /v1/profiles/:id?force=true calls
 *   `sessions.stopForProfile`.
 * - `profileDataDir(dataDir, id)` (data-dir.ts) is a profile's browser data; `getProfileLaunchSettings`
 *   (store/profiles.ts) gives a profile with its proxy, password included, and fingerprint.
 */
export function createApp(deps: AppDeps, groups: RouteGroup[] = routeGroups): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requestLog(deps.log));
  app.use('*', extensionCors());
  app.route('/', metaRoutes(deps));
  app.use('/v1/*', authenticate(deps.db, deps.clock));
  app.use('/v1/*', accountRateLimit(deps.clock));
  app.use('/v1/*', idempotency(deps.db, deps.clock));
  app.use('/v1/*', methodNotAllowedOnFixedPaths(app));
  app.use('/v1/*', refuseNulInPath());
  for (const group of groups) app.route('/', group(deps));
  maintainIdempotencyRecords(deps.db, deps.clock, deps.lifecycle);
  app.notFound(notFoundOrMethodNotAllowed(app));
  app.onError(handleErrors(deps.log));
  return app;
}
