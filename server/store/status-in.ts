/**
 * `column in ('a', 'b')`: a fixed set of statuses written into the SQL instead of bound as a parameter. A
 * prepared statement's generic plan can then use the partial indexes whose predicate is that set (live sessions,
 * active runs); bound as `= any($n)`, it cannot, and reads every session or run the database ever kept.
 */
export function statusIn(column: string, statuses: readonly string[]): string {
  if (!statuses.every((status) => /^[a-z_]+$/.test(status)))
    throw new Error(`not a status: ${statuses.join(', ')}`);
  return `${column} in (${statuses.map((status) => `'${status}'`).join(', ')})`;
}
