import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT } from '../../server/core/config';
import { loadMigrations, migrate } from '../../server/db/migrate';
import { openDatabase } from '../../server/db/open';

/**
 * A new PGlite database costs seconds of WASM (its initdb), more than anything else a service start does, and
 * every test service starts on a new data dir. The embedded database is made once, by the service's own
 * openDatabase and migrations, kept in the temp dir under a name that changes with the migrations and PGlite's
 * version, and copied into each new data dir: a service then starts on it as on one it made itself a moment ago.
 */
let template: Promise<string> | undefined;

/** Copies the migrated embedded database (`pg`) into a data dir. */
export async function copyDatabaseTemplate(dataDir: string): Promise<void> {
  template ??= ensureTemplate();
  await cp(path.join(await template, 'pg'), path.join(dataDir, 'pg'), { recursive: true });
}

async function ensureTemplate(): Promise<string> {
  const migrations = await loadMigrations();
  const pglite = await readFile(path.join(PROJECT_ROOT, 'node_modules/@electric-sql/pglite/package.json'));
  const digest = createHash('sha256')
    .update(pglite)
    .update(JSON.stringify(migrations))
    .digest('hex')
    .slice(0, 16);
  const final = path.join(tmpdir(), `pp-data-template-${digest}`);
  if (existsSync(final)) return final;
  // Made aside and renamed into place, so a test worker never copies a half-made one; another worker may win.
  const draft = await mkdtemp(`${final}.draft-`);
  try {
    const db = await openDatabase({ dataDir: draft });
    try {
      await migrate(db, migrations);
    } finally {
      await db.close();
    }
    await rename(draft, final).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await rm(draft, { recursive: true, force: true });
  }
  return final;
}
