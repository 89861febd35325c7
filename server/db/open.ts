import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { closeToOthers } from '../core/data-dir';
import type { Database } from './driver';

export interface DatabaseOptions {
  dataDir: string;
  /** A `postgres://` URL: use that server instead of the embedded database in `<dataDir>/pg`. */
  databaseUrl?: string | null;
  /** How long a PostgreSQL server may take to answer at start (DATABASE_WAIT). */
  databaseWaitMs?: number;
}

/** Opens the embedded PGlite database in `<dataDir>/pg`, or a real PostgreSQL server when a URL is given. */
export async function openDatabase({
  dataDir,
  databaseUrl,
  databaseWaitMs,
}: DatabaseOptions): Promise<Database> {
  if (databaseUrl) {
    const { openPostgres } = await import('./postgres');
    return openPostgres(databaseUrl, databaseWaitMs);
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
