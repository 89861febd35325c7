// Password guessing behind a proxy, tried as the attack: every person reaches the service through one proxy
// (docs/cluster/nginx.conf), so the limits must follow the client address the proxy reports, never the proxy's
// own, and hold across restarts and processes.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTEMPTS_PER_ADDRESS, ATTEMPTS_PER_EMAIL } from '../../../server/dashboard/attempts';
import { dashboardClient } from '../../support/dashboard-client';
import { createDataDir, type ServiceHandle, startService, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import { type PostgresServer, postgresForTests, startPostgres } from '../../support/postgres-server';

const PASSWORD = 'correct horse battery';
const PERSON = 'person@example.com';
const ATTACKER = '198.51.100.7';
// The proxy runs on the same machine as the service in these tests, as nginx often does.
const BEHIND_PROXY = { TRUST_PROXY: '127.0.0.1' };

/** A dashboard call from `address` as the proxy reports it (it appends the peer it was connected from). */
function from(service: TestService, address: string) {
  return (path: '/sign-in' | '/sign-up', email: string, password: string) =>
    dashboardClient(service.baseUrl).call('POST', path, { email, password }, { 'X-Forwarded-For': address });
}

/** The junk attempts of the attack: wrong passwords, for the person's email up to its limit, then for others. */
function junk(index: number): { email: string; password: string } {
  return {
    email: index < ATTEMPTS_PER_EMAIL ? PERSON : `guess${index}@example.com`,
    password: 'wrong password',
  };
}

describe('sign-in limits behind a trusted proxy, on the embedded database', { timeout: 120_000 }, () => {
  let dataDir: string;
  let service: TestService;
  beforeAll(async () => {
    dataDir = await createDataDir();
    service = await startServiceInProcess({ dataDir, env: BEHIND_PROXY });
    expect((await from(service, '203.0.113.5')('/sign-up', PERSON, PASSWORD)).status).toBe(201);
  });
  afterAll(async () => {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('locks out the guessing address only: another address signs in, and the lock survives a restart', async () => {
    const attacker = from(service, ATTACKER);
    for (let index = 0; index < ATTEMPTS_PER_ADDRESS; index++) {
      const { email, password } = junk(index);
      expect({ index, status: (await attacker('/sign-in', email, password)).status }).toEqual({
        index,
        status: 401,
      });
    }
    const refused = await attacker('/sign-in', 'one-more@example.com', 'wrong password');
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(15 * 60);
    expect((await attacker('/sign-up', 'fresh@example.com', PASSWORD)).status).toBe(429);
    expect((await attacker('/sign-in', PERSON, PASSWORD)).status).toBe(429);

    expect((await from(service, '203.0.113.50')('/sign-in', PERSON, PASSWORD)).status).toBe(200);

    await service.close();
    service = await startServiceInProcess({ dataDir, env: BEHIND_PROXY });
    expect(
      (await from(service, ATTACKER)('/sign-in', 'after-restart@example.com', 'wrong password')).status,
    ).toBe(429);
    expect((await from(service, '203.0.113.51')('/sign-in', PERSON, PASSWORD)).status).toBe(200);
  });

  it('never counts a successful sign-in: signing in more often than the limits is never locked out', async () => {
    const person = from(service, '203.0.113.60');
    for (let index = 0; index <= ATTEMPTS_PER_ADDRESS + 2; index++) {
      expect({ index, status: (await person('/sign-in', PERSON, PASSWORD)).status }).toEqual({
        index,
        status: 200,
      });
    }
    // A mistake after all those still gets its answer, not a lockout.
    expect((await person('/sign-in', PERSON, 'a typo')).status).toBe(401);
  });
});

describe('sign-in limits for IPv6 clients behind a trusted proxy', { timeout: 120_000 }, () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startServiceInProcess({ env: BEHIND_PROXY });
  });
  afterAll(() => service.close());

  // One subscriber is given a whole /64: an attacker takes a new address of it for every guess.
  it('counts a /64 as one address: new addresses of it do not escape the limit, another /64 is not locked', async () => {
    const inBlock = (index: number) => `2001:db8:7:7:${index.toString(16)}::${(index + 1).toString(16)}`;
    for (let index = 0; index < ATTEMPTS_PER_ADDRESS; index++) {
      const { email, password } = junk(index);
      expect({
        index,
        status: (await from(service, inBlock(index))('/sign-in', email, password)).status,
      }).toEqual({
        index,
        status: 401,
      });
    }
    expect((await from(service, inBlock(1000))('/sign-in', 'one-more@example.com', 'x')).status).toBe(429);
    expect((await from(service, inBlock(1001))('/sign-up', 'new@example.com', PASSWORD)).status).toBe(429);
    expect((await from(service, '2001:db8:7:8::1')('/sign-up', 'other@example.com', PASSWORD)).status).toBe(
      201,
    );
  });
});

describe('X-Forwarded-For from a peer that is not a trusted proxy', { timeout: 120_000 }, () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startServiceInProcess();
  });
  afterAll(() => service.close());

  it('is ignored: an address made up per attempt does not escape the limit', async () => {
    for (let index = 0; index < ATTEMPTS_PER_ADDRESS; index++) {
      const { email, password } = junk(index);
      expect((await from(service, `192.0.2.${index}`)('/sign-in', email, password)).status).toBe(401);
    }
    expect((await from(service, '192.0.2.200')('/sign-in', 'one-more@example.com', 'x')).status).toBe(429);
  });
});

const bin = postgresForTests();

describe.skipIf(!bin)(
  'sign-in limits on two processes of one PostgreSQL database',
  { timeout: 120_000 },
  () => {
    let postgres: PostgresServer;
    const dataDirs: string[] = [];
    const processes: ServiceHandle[] = [];
    beforeAll(async () => {
      postgres = await startPostgres(bin as string);
      dataDirs.push(await createDataDir(), await createDataDir());
      // One after the other: the first migrates the database.
      for (const dataDir of dataDirs)
        processes.push(await startService({ dataDir, env: { ...BEHIND_PROXY, DATABASE_URL: postgres.url } }));
    });
    afterAll(async () => {
      await Promise.all(processes.map((service) => service.stop()));
      await postgres?.stop();
      await Promise.all(dataDirs.map((dataDir) => rm(dataDir, { recursive: true, force: true })));
    });

    it('counts one address’s concurrent guesses on both processes together, and locks no other address', async () => {
      const [one, two] = processes as [ServiceHandle, ServiceHandle];
      expect((await from(one, '203.0.113.5')('/sign-up', PERSON, PASSWORD)).status).toBe(201);
      const guesses = Array.from({ length: ATTEMPTS_PER_ADDRESS + 10 }, (_, index) =>
        from(index % 2 === 0 ? one : two, ATTACKER)(
          '/sign-in',
          `guess${index}@example.com`,
          'wrong password',
        ),
      );
      const statuses = (await Promise.all(guesses)).map((response) => response.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(ATTEMPTS_PER_ADDRESS);
      expect(statuses.filter((status) => status === 429)).toHaveLength(10);
      expect((await from(two, '203.0.113.50')('/sign-in', PERSON, PASSWORD)).status).toBe(200);
      expect((await from(one, '203.0.113.50')('/sign-in', PERSON, PASSWORD)).status).toBe(200);
    });
  },
);
