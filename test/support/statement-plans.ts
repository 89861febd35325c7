import type { Database, Queryable } from '../../server/db/driver';

/** Runs `fn` against the database, recording each statement it sends. */
export async function statementsOf(db: Database, fn: (spy: Queryable) => Promise<unknown>) {
  const sent: { sql: string; params: readonly unknown[] }[] = [];
  await fn({
    query: (sql, params = []) => {
      sent.push({ sql, params });
      return db.query(sql, params);
    },
    exec: (sql) => db.exec(sql),
  });
  return sent;
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `array[${value.map(literal).join(', ')}]::text[]`;
  return `'${String(value).replaceAll("'", "''")}'`;
}

/** The plan PostgreSQL gives the statement once prepared, made for any parameters (a generic plan). */
export async function genericPlan(db: Database, sql: string, params: readonly unknown[]): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.exec('set local plan_cache_mode = force_generic_plan');
    await tx.exec(`prepare plan_check as ${sql}`);
    const args = params.length > 0 ? `(${params.map(literal).join(', ')})` : '';
    const rows = await tx.query<{ 'QUERY PLAN': string }>(`explain execute plan_check${args}`);
    await tx.exec('deallocate plan_check');
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}
