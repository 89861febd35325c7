import type { Lifecycle } from '../lifecycle';
import type { Logger } from '../log';
import type { Database } from './driver';

const CHECK_EVERY_MS = 10_000;

/**
 * PostgreSQL's autovacuum keeps the planner's statistics current; PGlite has none, and planned a list of 10,000
 * profiles as if it held 46. This does autovacuum's ANALYZE part on PGlite, with its default thresholds: a table
 * is analyzed once 50 rows plus a tenth of it changed since it last was.
 */
export function keepStatisticsCurrent(db: Database, lifecycle: Lifecycle, log: Logger): void {
  if (db.kind !== 'pglite') return;
  const analyzeChanged = async () => {
    const stale = await db.query<{ relname: string }>(
      `select relname from pg_stat_user_tables
        where n_mod_since_analyze > 50 + 0.1 * n_live_tup or last_analyze is null`,
    );
    for (const { relname } of stale) await db.exec(`analyze "${relname.replaceAll('"', '""')}"`);
  };
  let timer: NodeJS.Timeout | undefined;
  lifecycle.onStart('planner statistics', async () => {
    await analyzeChanged();
    timer = setInterval(
      () => void analyzeChanged().catch((error: unknown) => log.warn('analyze failed', { error })),
      CHECK_EVERY_MS,
    ).unref();
  });
  lifecycle.onShutdown('planner statistics', () => clearInterval(timer));
}
