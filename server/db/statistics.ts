import type { Lifecycle } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from './driver';

/**
 * PostgreSQL's autovacuum keeps the planner's statistics current; PGlite has none, and planned a list of 10,000
 * profiles as if it held 46, and costed the search index as if it were empty (a GIN index's own figures are
 * kept by VACUUM). This does autovacuum's work on PGlite, with its ANALYZE threshold: a table is vacuumed and
 * analyzed once 50 rows plus a tenth of it changed since it last was.
 */
export function keepStatisticsCurrent(
  db: Database,
  lifecycle: Lifecycle,
  log: Logger,
  checkEveryMs = 10_000,
): void {
  if (db.kind !== 'pglite') return;
  const analyzeChanged = async () => {
    const stale = await db.query<{ relname: string }>(
      `select relname from pg_stat_user_tables
        where n_mod_since_analyze > 50 + 0.1 * n_live_tup or last_analyze is null`,
    );
    for (const { relname } of stale) await db.exec(`vacuum (analyze) "${relname.replaceAll('"', '""')}"`);
  };
  let timer: NodeJS.Timeout | undefined;
  lifecycle.onStart('planner statistics', async () => {
    await analyzeChanged();
    timer = setInterval(
      () => void analyzeChanged().catch((error: unknown) => log.warn('vacuum failed', { error })),
      checkEveryMs,
    ).unref();
  });
  lifecycle.onShutdown('planner statistics', () => clearInterval(timer));
}
