import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './driver';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_FILE = /^(\d{3})_([a-z0-9_]+)\.sql$/;
// Any constant: several services starting on one PostgreSQL server migrate one after another.
const MIGRATION_LOCK = 7_208_431;

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** The migration files `NNN_name.sql`, in version order. */
export async function loadMigrations(directory = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(directory)).filter((file) => file.endsWith('.sql')).sort();
  return Promise.all(
    files.map(async (file) => {
      const match = MIGRATION_FILE.exec(file);
      if (!match) throw new Error(`Migration file ${file} is not named NNN_name.sql`);
      return {
        version: Number(match[1]),
        name: match[2] ?? '',
        sql: await readFile(path.join(directory, file), 'utf8'),
      };
    }),
  );
}

/**
 * Applies the migrations not yet recorded in schema_migrations, each in its own transaction. Returns their versions.
 * A process that finds another migrating says so (`onWait`) and waits for it.
 */
export async function migrate(
  db: Database,
  migrations?: Migration[],
  onWait: () => void = () => {},
): Promise<number[]> {
  const pending = migrations ?? (await loadMigrations());
  // Under the lock too: two processes creating it at once may both pass "if not exists" and one then fails.
  await db.transaction(async (tx) => {
    const [free] = await tx.query<{ taken: boolean }>('select pg_try_advisory_xact_lock($1) as taken', [
      MIGRATION_LOCK,
    ]);
    if (!free?.taken) {
      onWait();
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    }
    await tx.exec(`create table if not exists schema_migrations (
      version int primary key,
      name text not null,
      applied_at timestamptz not null default now()
    )`);
  });
  const applied: number[] = [];
  for (const migration of pending) {
    const done = await db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const rows = await tx.query('select 1 from schema_migrations where version = $1', [migration.version]);
      if (rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}
