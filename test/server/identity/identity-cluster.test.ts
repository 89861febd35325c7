import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { startCheckServer } from '../../support/check-server';
import { type ServiceHandle, startService } from '../../support/harness';
import { type PostgresServer, postgresForTests, startPostgres } from '../../support/postgres-server';

/*
 * Two processes on one PostgreSQL: a profile's session started through one runs there, started through the other
 * runs on that one (each has room), and FingerprintJS sees the same device on both.
 */

const bin = postgresForTests();
let postgres: PostgresServer;
let first: ServiceHandle;
let second: ServiceHandle;
let pages: Awaited<ReturnType<typeof startCheckServer>>;

describe.skipIf(!bin)('a profile whose session moves to another process of a cluster', () => {
  beforeAll(async () => {
    postgres = await startPostgres(bin as string);
    const env = { DATABASE_URL: postgres.url, EGRESS_ALLOW: 'loopback', MAX_BROWSERS: '1' };
    [first, pages] = await Promise.all([startService({ env }), startCheckServer()]);
    second = await startService({ env });
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close(), pages?.close()]);
    await postgres?.stop();
  });

  /** FingerprintJS's visitor in a session started through `api`'s process, which is stopped again. */
  async function visitorThrough(api: ApiClient, profileId: string): Promise<string> {
    const session = await api.startSession({ profile_id: profileId, headless: true });
    const browser = await chromium.connectOverCDP(session.cdp_url as string);
    try {
      const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
      await page.goto(`${pages.origin}/fp`);
      return ((await page.evaluate('window.visitor')) as { visitorId: string }).visitorId;
    } finally {
      await browser.close();
      await api.stopSession({ session_id: session.id });
    }
  }

  it('presents the same device on either process', async () => {
    const key = await first.createKey('enterprise');
    const onFirst = createClient({ baseUrl: first.baseUrl, apiKey: key, fetch });
    const onSecond = createClient({ baseUrl: second.baseUrl, apiKey: key, fetch });
    const profile = await onFirst.createProfile({ name: 'Travelling' });

    const here = await visitorThrough(onFirst, profile.id);
    const launchesBefore = second.logs.filter((line) => line.includes('"session started"')).length;
    const there = await visitorThrough(onSecond, profile.id);
    expect(second.logs.filter((line) => line.includes('"session started"')).length).toBe(launchesBefore + 1);
    expect(there).toBe(here);
  }, 180_000);
});
