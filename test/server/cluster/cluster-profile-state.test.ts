import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { startPageServer } from '../../support/browser-fixtures';
import { type ServiceHandle, startService } from '../../support/harness';
import { type PostgresServer, postgresForTests, startPostgres } from '../../support/postgres-server';

/*
 * Two processes of the service, each with its own data dir, on one PostgreSQL: a profile's browser data follows it,
 * and its lease (one holder) holds across them until the holder's process dies.
 */

const bin = postgresForTests();
let postgres: PostgresServer;
let first: ServiceHandle;
let second: ServiceHandle;
let pages: Awaited<ReturnType<typeof startPageServer>>;
let key: string;

const clientOf = (service: ServiceHandle): ApiClient =>
  createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });

/** Starts the profile on the service, runs `use` in a page of its browser, then stops the session. */
async function inSession(
  service: ServiceHandle,
  profileId: string,
  use: (page: Page, context: BrowserContext) => Promise<void>,
): Promise<void> {
  const api = clientOf(service);
  const session = await api.startSession({ profile_id: profileId, headless: true });
  const browser = await chromium.connectOverCDP(session.cdp_url as string);
  try {
    const context = browser.contexts()[0] as BrowserContext;
    const page = await context.newPage();
    await use(page, context);
    await page.close();
  } finally {
    // Disconnects this client only: the session's browser is the service's to stop.
    await browser.close();
  }
  expect(await api.stopSession({ profile_id: profileId })).toMatchObject({ status: 'stopped' });
}

const records = (service: ServiceHandle, msg: string) =>
  service.logs.map((line) => JSON.parse(line)).filter((record) => record.msg === msg);

describe.skipIf(!bin)('a profile’s browser data across processes', () => {
  beforeAll(async () => {
    postgres = await startPostgres(bin as string);
    // The page server listens on loopback, which sessions reach only when the operator allows it.
    // A short lease, so that a killed process's profiles are free again in seconds (the default is 30 s).
    const env = { DATABASE_URL: postgres.url, EGRESS_ALLOW: 'loopback', PROFILE_LEASE_TTL: '3' };
    // The second starts once the first has migrated the new database (one of two started at once exited, once).
    [first, pages] = await Promise.all([startService({ env }), startPageServer()]);
    second = await startService({ env });
    key = await first.createKey('enterprise');
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close(), pages?.close()]);
    await postgres?.stop();
  });

  it('carries cookies and local storage set on one process to the next start on another, and back', async () => {
    const profile = await clientOf(first).createProfile({ name: 'Travelling' });
    await inSession(first, profile.id, async (page) => {
      await page.goto(`${pages.origin}/set-cookie?flavour=oatmeal`);
      await page.evaluate(() => localStorage.setItem('note', 'from the first process'));
    });

    await inSession(second, profile.id, async (page, context) => {
      expect(await context.cookies(pages.origin)).toContainEqual(
        expect.objectContaining({ name: 'flavour', value: 'oatmeal' }),
      );
      await page.goto(`${pages.origin}/`);
      expect(pages.requests.at(-1)?.headers.cookie).toBe('flavour=oatmeal');
      expect(await page.evaluate(() => localStorage.getItem('note'))).toBe('from the first process');
      await page.goto(`${pages.origin}/set-cookie?topping=raisins`);
    });
    expect(records(second, 'profile state restored')).toMatchObject([{ profile_id: profile.id, version: 1 }]);

    // The first process still holds version 1 in its own data dir: the stored version 2 replaces it.
    await inSession(first, profile.id, async (page) => {
      await page.goto(`${pages.origin}/`);
      expect(pages.requests.at(-1)?.headers.cookie?.split('; ').sort()).toEqual([
        'flavour=oatmeal',
        'topping=raisins',
      ]);
    });
    expect(records(first, 'profile state restored')).toMatchObject([{ profile_id: profile.id, version: 2 }]);
    expect(records(first, 'profile state saved').map((record) => record.version)).toEqual([1, 3]);
  });

  it('takes cookies imported into a stopped profile on one process to its next start on another, and saves nothing to read them', async () => {
    const api = clientOf(first);
    const profile = await api.createProfile({ name: 'Imported' });
    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    const cookie = { name: 'imported', value: 'yes', domain: '127.0.0.1', expires: inAnHour };
    expect(await api.putProfileCookies(profile.id, [cookie])).toMatchObject({ imported: 1 });
    const saved = () =>
      records(first, 'profile state saved').filter((record) => record.profile_id === profile.id);
    expect(saved().map((record) => record.version)).toEqual([1]);
    expect((await api.getProfileCookies(profile.id)).map((found) => found.name)).toEqual(['imported']);
    expect(saved()).toHaveLength(1);

    await inSession(second, profile.id, async (page) => {
      await page.goto(`${pages.origin}/`);
      expect(pages.requests.at(-1)?.headers.cookie).toBe('imported=yes');
    });
    expect(records(second, 'profile state restored')).toContainEqual(
      expect.objectContaining({ profile_id: profile.id, version: 1 }),
    );
  });

  it('saves the data of a browser the person closed themselves before the session is reported stopped', async () => {
    const api = clientOf(first);
    const profile = await api.createProfile({ name: 'Closed by hand' });
    const session = await api.startSession({ profile_id: profile.id, headless: true });
    const browser = await chromium.connectOverCDP(session.cdp_url as string);
    const page = await (browser.contexts()[0] as BrowserContext).newPage();
    await page.goto(`${pages.origin}/set-cookie?closed=by-hand`);
    await (await browser.newBrowserCDPSession()).send('Browser.close').catch(() => {});
    await expect
      .poll(async () => (await api.getSession(session.id)).stop_reason, { timeout: 15_000 })
      .toBe('browser_exited');

    await inSession(second, profile.id, async (_page, context) => {
      expect(await context.cookies(pages.origin)).toContainEqual(
        expect.objectContaining({ name: 'closed', value: 'by-hand' }),
      );
    });
  });

  // Last: it kills the first process.
  it('refuses another member’s start on the other process while one holds it, and frees it within 60 s of a kill -9', async () => {
    const profile = await clientOf(first).createProfile({ name: 'Held' });
    const held = await clientOf(first).startSession({ profile_id: profile.id, headless: true });
    const made = await fetch(`${first.baseUrl}/v1/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Eve', role: 'editor' }),
    });
    const eveKey = ((await made.json()) as { key: string }).key;
    const eve = createClient({ baseUrl: second.baseUrl, apiKey: eveKey, fetch });
    const refused = await eve
      .startSession({ profile_id: profile.id, headless: true })
      .catch((error) => error);
    expect(refused).toMatchObject({ status: 409, code: 'profile_held' });
    expect(refused.detail).toMatch(/^Held is open by .+ since \d\d:\d\d UTC;/);

    await first.kill();
    const killedAt = Date.now();
    let taken: Awaited<ReturnType<typeof eve.startSession>> | undefined;
    while (!taken && Date.now() - killedAt < 60_000) {
      taken = await eve.startSession({ profile_id: profile.id, headless: true }).catch(async () => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        return undefined;
      });
    }
    expect(taken?.status).toBe('running');
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    expect((await eve.getProfile(profile.id)).held_by).toMatchObject({
      member: { name: 'Eve' },
      session_id: taken?.id,
    });
    expect(held.id).not.toBe(taken?.id);
    await eve.stopSession({ session_id: taken?.id as string });
  }, 120_000);
});
