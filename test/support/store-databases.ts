import type { Database } from '../../server/db/driver';
import { migrate } from '../../server/db/migrate';
import { openDatabase } from '../../server/db/open';
import { postgresForTests, startPostgres } from './postgres-server';
import { openScratchDatabase } from './scratch-database';

export interface StoreDatabase {
  name: string;
  open(): Promise<{ db: Database; close(): Promise<void> }>;
}

/** A migrated database of each kind the service runs on: PGlite, and a PostgreSQL server when installed. */
export function storeDatabases(name: string): StoreDatabase[] {
  const postgresBin = postgresForTests();
  return [
    { name: 'PGlite', open: () => openScratchDatabase(name) },
    ...(postgresBin
      ? [
          {
            name: 'PostgreSQL',
            async open() {
              const server = await startPostgres(postgresBin);
              const opened = await openDatabase({ dataDir: '', databaseUrl: server.url });
              await migrate(opened);
              return {
                db: opened,
                async close() {
                  await opened.close();
                  await server.stop();
                },
              };
            },
          },
        ]
      : []),
  ];
}
