import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable } from './driver';

/**
 * PGlite runs PostgreSQL in this process on one connection; its own mutex serializes queries, and
 * `transaction()` holds it for the whole transaction, so transactions never interleave.
 *
 * Durability: PGlite's Node file system hands every write to the OS with a synchronous `write` while the query
 * runs, and `relaxedDurability: false` keeps queries from resolving before PGlite's file sync. A commit that was
 * answered therefore survives the process being killed (see test/server/durability.test.ts). It is not
 * guaranteed to survive a power cut: PGlite runs PostgreSQL with fsync off and its WASM file layer cannot fsync.
 */
export async function openPglite(directory: string): Promise<Database> {
  const pg = await PGlite.create(directory, { relaxedDurability: false });
  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await target.query<T>(sql, [...params]);
      return result.rows;
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}
