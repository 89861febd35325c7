import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from '../../server/db/driver';
import { migrate } from '../../server/db/migrate';
import { openDatabase } from '../../server/db/open';
import { copyDatabaseTemplate } from './data-dir-template';

export interface ScratchDatabase {
  db: Database;
  dataDir: string;
  /** Closes the database and removes its folder. */
  close(): Promise<void>;
}

/**
 * A migrated embedded database in a folder of its own, for tests of the store without a service: a copy of the
 * migrated template (data-dir-template.ts), which spares each file the seconds of a new database.
 */
export async function openScratchDatabase(name: string): Promise<ScratchDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `pp-${name}-`));
  await copyDatabaseTemplate(dataDir);
  const db = await openDatabase({ dataDir });
  await migrate(db);
  return {
    db,
    dataDir,
    async close() {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
