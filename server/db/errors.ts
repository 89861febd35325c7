/** PostgreSQL's SQLSTATE for a row still referenced by another table's foreign key. */
const FOREIGN_KEY_VIOLATION = '23503';

export function isForeignKeyViolation(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION
  );
}

/** A database that did not answer at start: the operator's to start or to name rightly (exit code 3). */
export class DatabaseUnreachableError extends Error {}
