/**
 * The popup of an account as a person who manages hundreds of profiles has it, against the real service in real
 * Chromium: 300 profiles in two teams and a few shops, proxies each used by many (one of them dead), two sessions
 * running, one of them waiting for the person, and a script run on a tag as one batch with a failure. Each view
 * is checked for what it is meant to show, by axe and for nothing cut off at the popup's edge, and saved as the
 * README's screenshots (`*-300.png`).
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { Session } from '../../lib/api/schemas/sessions';
import { startAuthenticatingProxy } from '../support/browser-fixtures';
import { axeViolations } from './support/axe';
import { controllerForFile, createProfile } from './support/controller';
import { goTo, rowOf, saveScript, shownUnlessRefused } from './support/popup';
import { saveScreenshot } from './support/screenshots';
import { type Exit, serveCheckAddress, startSite } from './support/site';
import { eventually } from './support/wait';

/** Where each proxy comes out, by its user (places the offline database knows); a proxy check says so. */
const EXITS: Record<string, Exit & { place: string }> = {
  fra: { ip: '217.0.0.1', timezone: 'Europe/Berlin', place: 'Frankfurt am Main, DE' },
  lon: { ip: '81.2.69.142', timezone: 'Europe/London', place: 'London, GB' },
  nyc: { ip: '161.185.160.93', timezone: 'America/New_York', place: 'New York, US' },
  // A reseller's two logins.
  'cust-us-1': { ip: '172.217.0.1', timezone: 'America/Chicago', place: 'Chicago, US' },
  'cust-us-2': { ip: '172.217.0.1', timezone: 'America/Chicago', place: 'Chicago, US' },
};
const NOWHERE: Exit = { ip: '203.0.113.9', timezone: 'UTC' };

const controller = controllerForFile({
  env: async (cleanup) => ({
    PROXY_CHECK_URL: await serveCheckAddress(cleanup, (user) => EXITS[user ?? ''] ?? NOWHERE),
  }),
});

const TEAM_A = 150;
const TEAM_B = 144;
const SHOPS = 6;
const TOTAL = TEAM_A + TEAM_B + SHOPS;
const pad = (n: number) => String(n).padStart(3, '0');

/** Everyone's profiles, in the order they are made (the list shows the newest first). */
const PROFILES = [
  ...Array.from({ length: TEAM_A }, (_, n) => ({ name: `Seller ${pad(n + 1)}`, tag: 'team-a' })),
  ...Array.from({ length: TEAM_B }, (_, n) => ({ name: `Buyer ${pad(n + 1)}`, tag: 'team-b' })),
  ...Array.from({ length: SHOPS }, (_, n) => ({ name: `Shop ${n + 1}`, tag: 'shop' })),
];
const SCRIPT = 'Read the catalogue';
const REQUEST = 'Seller 150 needs you: type the code from the text message';

let popup: Page;
let script: object;
/** Each proxy by the name the account gave it, as pasted (user:pass@host:port), and the place its check gives. */
let proxies: { name: string; line: string; place?: string }[];
/** The reseller's logins, pasted for team B and saved under the name the service gives: user@host:port. */
let resold: string[];
const nameOf = (line: string) => line.replace(/:[^:@]*@/, '@');

/** A port nothing listens on: a proxy there fails every check and every page. */
async function closedPort(): Promise<number> {
  const { port, close } = await startAuthenticatingProxy('nobody', 'none');
  await close();
  return port;
}

beforeAll(async () => {
  const { api, cleanup } = controller;
  const began = Date.now();
  const [site, frankfurt, london, newYork, reseller1, reseller2, deadPort] = await Promise.all([
    startSite(),
    startAuthenticatingProxy('fra', 'pw-f'),
    startAuthenticatingProxy('lon', 'pw-l'),
    startAuthenticatingProxy('nyc', 'pw-n'),
    startAuthenticatingProxy('cust-us-1', 'pw-1'),
    startAuthenticatingProxy('cust-us-2', 'pw-2'),
    closedPort(),
  ]);
  const servers = [site, frankfurt, london, newYork, reseller1, reseller2];
  for (const server of servers) cleanup.add(server, (it) => it.close());
  script = {
    steps: [
      { action: 'goto', url: `${site.origin}/` },
      { action: 'extract', selector: 'title', name: 'title' },
    ],
  };

  // Made twenty-five at a time, in order: the list's newest are the shops, then the last buyers.
  for (let start = 0; start < TOTAL; start += 25) {
    await Promise.all(
      PROFILES.slice(start, start + 25).map(({ name, tag }) => createProfile(api, { name, tags: [tag] })),
    );
  }

  // Four proxies named as people name them; the same logins pasted for a selection below are these.
  proxies = [
    { name: 'Frankfurt residential', line: `fra:pw-f@127.0.0.1:${frankfurt.port}`, place: EXITS.fra?.place },
    { name: 'London mobile', line: `lon:pw-l@127.0.0.1:${london.port}`, place: EXITS.lon?.place },
    { name: 'New York datacenter', line: `nyc:pw-n@127.0.0.1:${newYork.port}`, place: EXITS.nyc?.place },
    { name: 'Paris backup', line: `par:pw-p@127.0.0.1:${deadPort}` },
  ];
  for (const { name, line } of proxies) {
    const [, username, password, port] = /^(\w+):([\w-]+)@127\.0\.0\.1:(\d+)$/.exec(line) ?? [];
    const body = { name, scheme: 'http', host: '127.0.0.1', port: Number(port), username, password };
    await api.post('/v1/proxies', body, 201);
  }
  const [fra, lon, nyc, par] = proxies.map(({ line }) => line) as string[];

  // Each tag's proxies as one pasted list, one line per profile in the list's order (newest first): team A
  // shares Frankfurt and London in turn; team B has New York for its newest half and, for the rest, two logins
  // of a reseller's pasted as they came (saved as new proxies); the shops are in Frankfurt but for the newest,
  // still on the Paris proxy that stopped working.
  const paste = (tag: string, lines: (n: number) => string | undefined, count: number) =>
    api.post('/v1/profiles/bulk', {
      select: { filter: { tag } },
      action: 'set_proxy',
      proxies: Array.from({ length: count }, (_, n) => lines(n)),
    });
  await paste('team-a', (n) => (n % 2 ? lon : fra), TEAM_A);
  resold = [`cust-us-1:pw-1@127.0.0.1:${reseller1.port}`, `cust-us-2:pw-2@127.0.0.1:${reseller2.port}`];
  await paste('team-b', (n) => (n < TEAM_B / 2 ? nyc : resold[n % 2]), TEAM_B);
  await paste('shop', (n) => (n ? fra : par), SHOPS);
  // A few of each team are also being warmed up.
  for (const q of ['Seller 14', 'Buyer 14'])
    await api.post('/v1/profiles/bulk', { select: { filter: { q } }, action: 'add_tags', tags: ['warm-up'] });

  // Two sessions running: a buyer's, which a script read the shop's page in (in a tab of its own, closed after);
  // a seller's, whose run waits on the shop's sign-in page for the person to type a code.
  const idOf = async (name: string) =>
    (await api.get<{ data: Profile[] }>(`/v1/profiles?q=${encodeURIComponent(name)}&limit=1`)).data[0]?.id;
  const buyer = await api.post<Session>('/v1/sessions/start', { profile_id: await idOf('Buyer 144') }, 201);
  const browse = await api.post<AutomationRun>('/v1/automation/run', { session_id: buyer.id, script }, 202);
  const asking = {
    profile_id: await idOf('Seller 150'),
    name: 'Sign in',
    script: {
      timeout_ms: 300_000,
      steps: [
        { action: 'goto', url: `${site.origin}/sign-in` },
        { action: 'ask_human', reason: 'type the code from the text message', timeout_ms: 300_000 },
      ],
    },
  };
  await api.post('/v1/automation/run', asking, 202);
  const browsed = await api.get<AutomationRun>(
    `/v1/automation/status?run_id=${browse.id}&wait=25&until=finished`,
  );
  expect(browsed.status).toBe('succeeded');
  await eventually('the request to be open', async () => {
    const { data } = await api.get<{ data: unknown[] }>('/v1/help-requests?status=open');
    return data.length ? data : undefined;
  });
  console.info(`seeded ${TOTAL} profiles, their proxies, sessions and request in ${Date.now() - began} ms`);
  popup = await controller.extension.openPopup('#/proxies');
}, 120_000);

/**
 * Fails with axe's findings unless there are none, or with the controls and sentences that stick out past the
 * popup's right edge (where Chromium cuts them off); then saves the popup, scrolled to the top, as `name`.png.
 */
async function checkedScreenshot(name: string): Promise<void> {
  expect(await axeViolations(popup)).toEqual([]);
  const past = await popup.evaluate(() =>
    [...document.querySelectorAll('a, button, input, select, textarea, [role="status"]')]
      .filter((element) => element.getBoundingClientRect().right > document.body.clientWidth)
      .map((element) => element.getAttribute('aria-label') ?? element.textContent),
  );
  expect(past, 'cut off at the right edge').toEqual([]);
  await popup.evaluate(() => window.scrollTo(0, 0));
  await saveScreenshot(popup, name);
}

describe('the popup at 300 profiles', () => {
  const count = () =>
    popup
      .getByRole('status')
      .filter({ hasText: /profiles?$/ })
      .textContent();
  const listedNames = () => popup.locator('ul.rows > li .name').allTextContents();

  it('checks every proxy at once, says where each comes out or why it fails, and how many use it', async () => {
    await popup.getByRole('button', { name: 'Check all' }).click();
    await popup.getByRole('status').filter({ hasText: 'Checked 6 of 6' }).waitFor();
    const rows = [
      ...proxies,
      ...resold.map((line) => ({ name: nameOf(line), place: EXITS['cust-us-1']?.place })),
    ];
    for (const { name, place } of rows) {
      const result = rowOf(popup, name).locator('.check-result');
      expect(await result.textContent()).toContain(
        place ? `in ${place}` : 'Does not work: The proxy refused the connection: check its host and port.',
      );
    }
    const usedBy = async (name: string) => {
      const line = rowOf(popup, name).locator('small');
      // All of it in sight: the second line wraps rather than cut "used by" off.
      expect(await line.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      return /used by .*$/.exec((await line.textContent()) ?? '')?.[0];
    };
    expect(await usedBy('Frankfurt residential')).toBe(`used by ${TEAM_A / 2 + SHOPS - 1} profiles`);
    expect(await usedBy('London mobile')).toBe(`used by ${TEAM_A / 2} profiles`);
    expect(await usedBy('New York datacenter')).toBe(`used by ${TEAM_B / 2} profiles`);
    expect(await usedBy('Paris backup')).toBe('used by 1 profile');
    for (const line of resold) expect(await usedBy(nameOf(line))).toBe(`used by ${TEAM_B / 4} profiles`);
    await checkedScreenshot('proxies-300');
  });

  it('lists them a page at a time, in the order last used, with the tags to filter by', async () => {
    await goTo(popup, 'Profiles');
    await expect.poll(count).toBe(`50 of ${TOTAL} profiles`);
    await popup.getByLabel('Sort', { exact: true }).selectOption({ label: 'Last used' });
    // The two in use first, the one started last on top; then the never used, newest first.
    await expect
      .poll(async () => (await listedNames()).slice(0, 3))
      .toEqual(['Seller 150', 'Buyer 144', 'Shop 6']);
    expect(await count()).toBe(`50 of ${TOTAL} profiles`);
    // The chips are the account's tags, most used first.
    const chips = popup.getByRole('group', { name: 'Show only a tag' }).getByRole('button');
    expect(await chips.allTextContents()).toEqual(['#team-a', '#team-b', '#warm-up', '#shop']);
    // Each row says what differs: its proxy by name, where it comes out or that it fails, and its tags.
    await rowOf(popup, 'Seller 150')
      .getByText(`Frankfurt residential ✓ ${EXITS.fra?.place}`, { exact: false })
      .waitFor();
    await rowOf(popup, 'Shop 6').getByText('Paris backup ✗ fails', { exact: false }).waitFor();
    await popup.getByRole('button', { name: `Select all ${TOTAL} matching` }).waitFor();
    await checkedScreenshot('profiles-300');
  });

  it('selects all 300 matching at once, and the bulk bar and its question name the same number', async () => {
    await popup.getByRole('button', { name: `Select all ${TOTAL} matching` }).click();
    await popup.getByText(`${TOTAL} selected`).waitFor();
    await popup.getByRole('button', { name: `Delete ${TOTAL}` }).waitFor();
    await popup.getByRole('button', { name: 'Tags…' }).click();
    await popup.getByText(`Add tags to ${TOTAL} profiles, or remove them`, { exact: false }).waitFor();
    await popup.getByLabel('Tags', { exact: true }).fill('priority');
    await popup.getByRole('button', { name: `Add to ${TOTAL}` }).waitFor();
    await popup.getByRole('button', { name: `Remove from ${TOTAL}` }).waitFor();
    await checkedScreenshot('bulk-300');
    await popup.getByRole('button', { name: 'Cancel' }).click();
  });

  it('shows the running sessions by their profiles’ names and pages', async () => {
    await goTo(popup, 'Sessions');
    for (const name of ['Buyer 144', 'Seller 150'])
      await popup.getByRole('button', { name: `Copy CDP URL of ${name}` }).waitFor();
    await popup.getByText('Spring catalogue', { exact: false }).first().waitFor();
    await checkedScreenshot('sessions-300');
  });

  it('shows the request waiting for the person', async () => {
    await goTo(popup, 'Handoffs');
    const row = popup.getByRole('listitem').filter({ hasText: REQUEST });
    await row.getByRole('button', { name: 'Take over' }).waitFor();
    await checkedScreenshot('requests-300');
  });

  it('runs a script on a tag as one batch, and sums it up: 5 of 6, the one on the dead proxy failed', async () => {
    await goTo(popup, 'Automation');
    await saveScript(popup, SCRIPT, script);
    await goTo(popup, 'Profiles');
    await popup
      .getByRole('group', { name: 'Show only a tag' })
      .getByRole('button', { name: '#shop' })
      .click();
    await expect.poll(count).toBe(`${SHOPS} profiles`);
    await popup.getByLabel('Select all', { exact: true }).check();
    await popup.getByRole('button', { name: 'Run script…' }).click();
    await popup.getByLabel('Saved script').selectOption(SCRIPT);
    await popup.getByRole('button', { name: `Run on ${SHOPS}` }).click();
    await shownUnlessRefused(
      popup,
      popup.getByRole('status').filter({ hasText: `Queued ${SHOPS} of ${SHOPS} as one batch` }),
    );
    await goTo(popup, 'Automation');
    const card = popup.getByRole('article', { name: `Batch: ${SCRIPT}` });
    await expect
      .poll(() => card.getByRole('status').textContent(), { timeout: 60_000 })
      .toBe(`${SHOPS - 1} of ${SHOPS} succeeded, 1 failed`);
    await card.getByRole('button', { name: 'Retry 1 failed' }).waitFor();
    // The card says what ran: no "No runs yet" under it.
    expect(await popup.getByText('No runs yet', { exact: false }).count()).toBe(0);
    await card.getByRole('checkbox', { name: 'Show the failed only' }).check();
    const failed = card.locator('li.run');
    await expect.poll(() => failed.count()).toBe(1);
    expect(await failed.locator('summary').first().textContent()).toContain('Shop 6');
    await checkedScreenshot('batch-300');
  });

  it('opens the options page from Settings at the popup’s foot', async () => {
    const opened = controller.extension.context.waitForEvent('page');
    await popup.getByRole('contentinfo').getByRole('button', { name: 'Menu' }).click();
    await popup.getByRole('contentinfo').getByText('Keyboard shortcuts').waitFor();
    await popup.getByRole('contentinfo').getByRole('button', { name: 'Settings' }).click();
    const options = await opened;
    await options.setViewportSize({ width: 720, height: 600 });
    await options.getByRole('heading', { name: 'Service', exact: true }).waitFor();
    await options.getByText(`Service URL: ${controller.service.baseUrl}`).waitFor();
    // Each shortcut on a line of its own, its keys then what they do in words, not a letter a line.
    const shortcuts = options.getByRole('definition');
    await shortcuts.first().waitFor();
    for (const height of await shortcuts.evaluateAll((all) => all.map((dd) => dd.clientHeight)))
      expect(height).toBeLessThan(40);
    expect(await axeViolations(options)).toEqual([]);
    await saveScreenshot(options, 'options', 1600);
    await options.close();
  });
});
