import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { closeToOthers } from '../data-dir';

/** Anything that runs SQL in PostgreSQL's dialect with `$1` parameters: the database or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Inside, use only
   * `tx`: on PGlite (one connection) a query on the database itself would wait for the transaction to end.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  dataDir: string;
  /** A `postgres://` URL: use that server instead of the embedded database in `<dataDir>/pg`. */
  databaseUrl?: string | null;
}

/** Opens the embedded PGlite database in `<dataDir>/pg`, or a real PostgreSQL server when a URL is given. */
export async function openDatabase({ dataDir, databaseUrl }: DatabaseOptions): Promise<Database> {
  if (databaseUrl) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(databaseUrl);
  }
  const directory = path.join(dataDir, 'pg');
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const { openPglite } = await import('./pglite');
  const db = await openPglite(directory);
  // A new database is unpacked with modes of its own (0666 files, 0755 folders) whatever the umask.
  try {
    closeToOthers(directory);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
