import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { freePort } from '../../support/free-port';
import { type PostgresServer, postgresForTests, startPostgres } from '../../support/postgres-server';

vi.mock('../../support/free-port', async (original) => {
  const real = await original<typeof import('../../support/free-port')>();
  return { freePort: vi.fn(real.freePort) };
});

const bin = postgresForTests();
const started: PostgresServer[] = [];

async function dataDirectoryAt(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (
      (await client.query<{ data_directory: string }>('show data_directory')).rows[0]?.data_directory ?? ''
    );
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await Promise.all(started.map((server) => server.stop()));
});

describe.skipIf(!bin)('a PostgreSQL for a test', () => {
  it('moves to another port when the free one it picked was taken meanwhile, not to the server that took it', async () => {
    const first = await startPostgres(bin as string);
    started.push(first);
    vi.mocked(freePort).mockResolvedValueOnce(Number(new URL(first.url).port));
    const second = await startPostgres(bin as string);
    started.push(second);
    expect(new URL(second.url).port).not.toBe(new URL(first.url).port);
    expect(await dataDirectoryAt(second.url)).not.toBe(await dataDirectoryAt(first.url));
  }, 120_000);
});
