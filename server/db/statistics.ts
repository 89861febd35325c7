import type { Job } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from './driver';

/**
 * PostgreSQL's autovacuum keeps the planner's statistics current; PGlite has none, and planned a list of 10,000
 * profiles as if it held 46, and costed the search index as if it were empty (a GIN index's own figures are
 * kept by VACUUM). This does autovacuum's work on PGlite, with its ANALYZE threshold: a table is vacuumed and
 * analyzed once 50 rows plus a tenth of it changed since it last was.
 */
export function keepStatisticsCurrent(db: Database, log: Logger, checkEveryMs = 10_000): Job | null {
  if (db.kind !== 'pglite') return null;
  const analyzeChanged = async () => {
    const stale = await db.query<{ relname: string }>(
      `select relname from pg_stat_user_tables
        where n_mod_since_analyze > 50 + 0.1 * n_live_tup or last_analyze is null`,
    );
    for (const { relname } of stale) await db.exec(`vacuum (analyze) "${relname.replaceAll('"', '""')}"`);
  };
  return {
    name: 'planner statistics',
    start: analyzeChanged,
    every: {
      ms: checkEveryMs,
      run: () => void analyzeChanged().catch((error: unknown) => log.warn('vacuum failed', { error })),
    },
  };
}
