import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { startCheckServer } from '../../support/check-server';
import { postgresForTests } from '../../support/postgres-server';
import { clusterSuite } from '../../support/service-suite';

/*
 * Two processes on one PostgreSQL: a profile's session started through one runs there, started through the other
 * runs on that one (each has room), and FingerprintJS sees the same device on both.
 */

const bin = postgresForTests();
let pages: Awaited<ReturnType<typeof startCheckServer>>;

describe.skipIf(!bin)('a profile whose session moves to another process of a cluster', () => {
  const cluster = clusterSuite(bin as string, { EGRESS_ALLOW: 'loopback' });
  beforeAll(async () => {
    pages = await startCheckServer();
  });
  afterAll(() => pages?.close());

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
    const key = await cluster.first.createKey('enterprise');
    const onFirst = createClient({ baseUrl: cluster.first.baseUrl, apiKey: key, fetch });
    const onSecond = createClient({ baseUrl: cluster.second.baseUrl, apiKey: key, fetch });
    const profile = await onFirst.createProfile({ name: 'Travelling' });

    const here = await visitorThrough(onFirst, profile.id);
    const launchesBefore = cluster.second.logs.filter((line) => line.includes('"session started"')).length;
    const there = await visitorThrough(onSecond, profile.id);
    expect(cluster.second.logs.filter((line) => line.includes('"session started"')).length).toBe(
      launchesBefore + 1,
    );
    expect(there).toBe(here);
  }, 180_000);
});
