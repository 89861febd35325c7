import { afterAll, beforeAll } from 'vitest';
import { type ApiClient, createClient } from '../../lib/api/client';
import type { Plan } from '../../lib/api/schemas/account';
import { startCheckServer } from './check-server';
import { requester, type ServiceHandle, startService, type TestService } from './harness';
import { startServiceInProcess } from './in-process-service';
import { type PostgresServer, startPostgres } from './postgres-server';

export interface ServiceSuite {
  service: TestService;
  /** A client with a key of an account of the suite's plan. */
  api: ApiClient;
  /** Raw requests with the same key, for what the typed client does not send (bad bodies, methods). */
  request: ReturnType<typeof requester>;
  /** The local check pages, where the suite asked for them. */
  pages: Awaited<ReturnType<typeof startCheckServer>>;
}

/**
 * The suite's own service (in this process unless asked), started (with the check pages if asked, at `checkPages` as their frames' host) before its
 * tests and closed after them. Its fields are there once the suite's tests run.
 */
export function serviceSuite(options: {
  plan: Plan;
  /** The service's environment; a function is called once the suite's earlier `beforeAll`s have run. */
  env?: Record<string, string> | (() => Record<string, string>);
  checkPages?: string;
  /** A process of its own, where what is measured is the service's event loop apart from the test's own work. */
  process?: boolean;
}): ServiceSuite {
  const suite = {} as ServiceSuite;
  beforeAll(async () => {
    const env = typeof options.env === 'function' ? options.env() : options.env;
    const [service, pages] = await Promise.all([
      options.process ? startService({ env }) : startServiceInProcess({ env }),
      options.checkPages === undefined ? undefined : startCheckServer(options.checkPages),
    ]);
    if (pages) suite.pages = pages;
    suite.service = service;
    const apiKey = await service.createKey(options.plan);
    suite.api = createClient({ baseUrl: service.baseUrl, apiKey, fetch });
    suite.request = requester(service.baseUrl, apiKey);
  });
  afterAll(async () => {
    await Promise.all([suite.service?.close(), suite.pages?.close()]);
  });
  return suite;
}

export interface ClusterSuite {
  first: ServiceHandle;
  second: ServiceHandle;
  /** The PostgreSQL both processes share. */
  databaseUrl: string;
}

/**
 * Two processes of the service on one PostgreSQL of their own (`bin`'s), room for one browser each, started before
 * the suite's tests (the first, then the second) and stopped after them.
 */
export function clusterSuite(bin: string, env: Record<string, string>): ClusterSuite {
  const suite = {} as ClusterSuite;
  let postgres: PostgresServer | undefined;
  beforeAll(async () => {
    postgres = await startPostgres(bin);
    suite.databaseUrl = postgres.url;
    const shared = { ...env, DATABASE_URL: postgres.url, MAX_BROWSERS: '1' };
    suite.first = await startService({ env: shared });
    suite.second = await startService({ env: shared });
  });
  afterAll(async () => {
    await Promise.all([suite.first?.close(), suite.second?.close()]);
    await postgres?.stop();
  });
  return suite;
}
