import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataDir, requester, type ServiceHandle, startService } from '../../support/harness';
import { type PostgresServer, postgresForTests, startPostgres } from '../../support/postgres-server';

/* Two processes of the service on one PostgreSQL server (DATABASE_URL) share each account's hourly count. */

const bin = postgresForTests();
let postgres: PostgresServer;
const dataDirs: string[] = [];
let processes: ServiceHandle[] = [];

const startProcesses = () =>
  Promise.all(dataDirs.map((dataDir) => startService({ env: { DATABASE_URL: postgres.url }, dataDir })));

describe.skipIf(!bin)('the hourly limit on two processes of one database', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    postgres = await startPostgres(bin as string);
    dataDirs.push(await createDataDir(), await createDataDir());
    // One after the other: the first migrates the database.
    for (const dataDir of dataDirs) {
      processes.push(await startService({ env: { DATABASE_URL: postgres.url }, dataDir }));
    }
  });
  afterAll(async () => {
    await Promise.all(processes.map((service) => service.stop()));
    await postgres?.stop();
    await Promise.all(dataDirs.map((dataDir) => rm(dataDir, { recursive: true, force: true })));
  });

  it('gives exactly 100 of 150 concurrent requests on a free key, and a restart of both does not give the hour back', async () => {
    const key = await processes[0]?.createKey('free');
    const requests = Array.from({ length: 150 }, (_, i) =>
      requester(processes[i % 2]?.baseUrl ?? '', key)('GET', '/v1/profiles'),
    );
    const statuses = (await Promise.all(requests)).map((response) => response.status);
    expect(statuses.filter((status) => status >= 200 && status < 300)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);

    await Promise.all(processes.map((service) => service.stop()));
    processes = await startProcesses();
    for (const service of processes) {
      const refused = await requester(service.baseUrl, key)('GET', '/v1/profiles');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    }
  });
});
