import type { Queryable } from '../db/driver';

/**
 * Runs a select and returns its rows read as one JSON value: the database sends one field instead of every
 * column of every row, which the drivers would each decode one by one. Timestamps arrive as their JSON text.
 * `order` repeats the select's ORDER BY over its output columns (`seq desc`, `sort_key asc, seq desc`), which an
 * aggregate does not promise to keep otherwise.
 */
export async function queryAsJson<T>(
  db: Queryable,
  sql: string,
  params: readonly unknown[],
  order: string,
): Promise<T[]> {
  const [result] = await db.query<{ rows: T[] }>(
    `select coalesce(json_agg(r order by ${order.replace(/(^|,\s*)/g, '$1r.')}), '[]') as rows from (${sql}) r`,
    params,
  );
  return result?.rows ?? [];
}
