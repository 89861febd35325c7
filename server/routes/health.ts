import { Hono } from 'hono';
import type { Database } from '../db/driver';
import type { AppDeps } from '../http/deps';
import type { AppEnv } from '../http/env';

/** A probe gets its answer well within a kubelet's default timeout (1 s is the default; 2 s is allowed here). */
const DATABASE_PROBE_MS = 1500;

/**
 * The probes: /healthz while the process serves at all (liveness), /readyz while it should be sent work
 * (readiness): not while it drains, nor while its database does not answer.
 */
export function healthRoutes({ config, db, membership }: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const startedAt = performance.now();

  routes.get('/healthz', (c) =>
    c.json({
      status: 'ok',
      version: config.version,
      uptime_s: Math.floor((performance.now() - startedAt) / 1000),
    }),
  );

  routes.get('/readyz', async (c) => {
    if (membership.draining())
      return c.json(
        { status: 'draining', detail: 'This machine of the service is shutting down and takes no new work.' },
        503,
      );
    if (!(await answersWithin(db, DATABASE_PROBE_MS)))
      return c.json(
        {
          status: 'database_unreachable',
          detail: `The database did not answer within ${DATABASE_PROBE_MS} ms.`,
        },
        503,
      );
    return c.json({ status: 'ready' });
  });

  return routes;
}

async function answersWithin(db: Database, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const answered = db.query('select 1').then(
    () => true,
    () => false,
  );
  return Promise.race([answered, late]).finally(() => clearTimeout(timer));
}
