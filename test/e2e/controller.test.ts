/**
 * The popup as a controller for every profile, against the real service in real Chromium: no secret in a draft
 * when the popup closes mid-form, a thousand profiles searched (by name and tag) and paged by the service.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { browser } from 'wxt/browser';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import type { Session } from '../../lib/api/schemas/sessions';
import { startAuthenticatingProxy } from '../support/browser-fixtures';
import { type ServiceHandle, startService } from '../support/harness';
import { axeViolations } from './support/axe';
import { cleanupStack } from './support/cleanup';
import { type Extension, openExtension } from './support/extension';
import { goTo, pick, pickable, rowAction, rowOf, shownUnlessRefused } from './support/popup';
import { serviceReader } from './support/service-api';
import { eventually } from './support/wait';
import { badge } from './support/worker';

const cleanup = cleanupStack();
let service: ServiceHandle;
let extension: Extension;
let api: ReturnType<typeof serviceReader>;
let popup: Page;
/** What axe-core found on the set-up view, and on its result once connected (checked with the other views). */
let setupViolations: string[];
let connectedViolations: string[];
/** Where the focus went once Connect had its answer. */
let focusAfterConnect: string | null | undefined;

/** Answers as ipinfo.io does: the caller's IP and its time zone (what proxy checks ask through the proxy). */
async function startCheckAddress(): Promise<string> {
  const server = createServer((_request, response) =>
    response
      .setHeader('Content-Type', 'application/json')
      .end('{"ip":"203.0.113.9","timezone":"Asia/Tokyo"}'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.add(server, (it) => new Promise((resolve) => it.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/json`;
}

beforeAll(async () => {
  const checkUrl = await startCheckAddress();
  [service, extension] = await Promise.all([
    startService({ env: { EGRESS_ALLOW: 'loopback', PROXY_CHECK_URL: checkUrl } }).then((started) =>
      cleanup.add(started, (it) => it.close()),
    ),
    openExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
  const key = await service.createKey('enterprise', 'E2E controller');
  api = serviceReader(service.baseUrl, key);
  popup = await extension.openPopup();
  await popup.getByLabel('Service URL').fill(service.baseUrl);
  setupViolations = await axeViolations(popup);
  await popup.getByLabel('API key').fill(key);
  await popup.getByRole('button', { name: 'Connect' }).click();
  await shownUnlessRefused(popup, popup.getByRole('status').filter({ hasText: 'Connected to' }));
  // Focus moves to the result of Connect, said above the Profiles view, and axe is checked there too.
  focusAfterConnect = await eventually(
    'the focus to move',
    async () => {
      const focused = await popup.evaluate(() => document.activeElement?.tagName);
      return focused === 'BODY' ? undefined : popup.evaluate(() => document.activeElement?.textContent);
    },
    5_000,
  ).catch(() => 'the page body');
  connectedViolations = await axeViolations(popup);
});

afterAll(() => cleanup.run());

/** The accessible label (else the text) of the element with the focus. */
function focusedLabel(page: Page): Promise<string | null | undefined> {
  return page.evaluate(
    () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent,
  );
}

/** Everything the extension keeps, in every storage area, as one text. */
function allStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const { storage } = (globalThis as unknown as { chrome: typeof browser }).chrome;
    const areas = [storage.local, storage.session];
    return JSON.stringify(await Promise.all(areas.map((area) => area.get(null))));
  });
}

describe('secrets never in drafts', () => {
  it('keeps no proxy password when the popup closes mid-form, and asks for it again', async () => {
    const secret = 'S3cret-pass';
    await goTo(popup, 'Proxies');
    await popup.getByRole('button', { name: 'New proxy' }).click();
    await popup.getByLabel('Paste a proxy URL').fill(`http://alice:${secret}@proxy.example:8080`);
    expect(await popup.getByLabel('Paste a proxy URL').inputValue()).toBe('http://alice@proxy.example:8080');
    expect(await popup.getByLabel('Password').inputValue()).toBe(secret);
    await expect.poll(() => allStorage(popup)).toContain('proxy.example');
    expect(await allStorage(popup)).not.toContain(secret);
    await popup.close();

    popup = await extension.openPopup('#/proxies');
    await popup.getByRole('button', { name: 'New proxy' }).click();
    await expect.poll(() => popup.getByLabel('User name').inputValue()).toBe('alice');
    await popup.getByLabel('Name', { exact: true }).fill('Office');
    await popup.getByRole('button', { name: 'Save' }).click();
    await popup.getByText('The password is never kept when the popup closes: type it again.').waitFor();
    await popup.getByLabel('Password').fill(secret);
    await popup.getByRole('button', { name: 'Save' }).click();
    await shownUnlessRefused(popup, rowOf(popup, 'Office'));
    await rowOf(popup, 'Office').getByText('password set', { exact: false }).waitFor();
    const { data } = await api.get<{ data: ProxyConfig[] }>('/v1/proxies');
    expect(data).toMatchObject([{ name: 'Office', username: 'alice', has_password: true }]);
    expect(await allStorage(popup)).not.toContain(secret);
  });
});

describe('every profile', () => {
  const COUNT = 1000;
  const nameOf = (index: number) => `Scale ${String(index).padStart(4, '0')}`;

  beforeAll(async () => {
    // Every tenth is tagged "vip": a search for "vip" finds them by their tag.
    const indexes = Array.from({ length: COUNT }, (_, index) => index + 1);
    for (let start = 0; start < COUNT; start += 20) {
      await Promise.all(
        indexes.slice(start, start + 20).map(async (index) => {
          const body = { name: nameOf(index), tags: index % 10 === 0 ? ['vip'] : [] };
          const answer = await api.send('POST', '/v1/profiles', {
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          });
          expect(answer.status).toBe(201);
        }),
      );
    }
  }, 300_000);

  it('searches a thousand profiles on the service by name and by tag, and pages as the person scrolls', async () => {
    popup = await extension.openPopup('#/profiles');
    const count = popup.getByRole('status').filter({ hasText: /profiles?$/ });
    await expect.poll(() => count.textContent()).toBe(`50 of ${COUNT} profiles`);
    // Dense rows: at least eight whole rows between the sticky bar and the footer of the 600-px popup, one
    // primary action and a ⋯ menu each, the name no smaller than its status.
    const fit = await popup.locator('ul.rows > li').evaluateAll((rows) => {
      const top = document.querySelector('.toolbar')?.getBoundingClientRect().bottom ?? 0;
      const bottom = document.querySelector('footer')?.getBoundingClientRect().top ?? innerHeight;
      const whole = rows.filter((row) => {
        const box = row.getBoundingClientRect();
        return box.top >= top && box.bottom <= bottom;
      });
      const size = (row: Element, selector: string) =>
        Number.parseFloat(getComputedStyle(row.querySelector(selector) as Element).fontSize);
      return {
        whole: whole.length,
        buttons: rows[0]?.querySelectorAll('button').length,
        nameBigger: rows.every((row) => size(row, '.name') >= size(row, '.status')),
      };
    });
    expect(fit).toEqual({ whole: expect.any(Number), buttons: 2, nameBigger: true });
    expect(fit.whole).toBeGreaterThanOrEqual(8);

    const search = popup.getByLabel('Search profiles');
    await search.fill('Scale 0500');
    await shownUnlessRefused(popup, rowOf(popup, 'Scale 0500'));
    await expect.poll(() => count.textContent()).toBe('1 profile');

    await search.fill('VIP');
    await expect.poll(() => count.textContent()).toBe('50 of 100 profiles');
    expect(await popup.getByRole('listitem').count()).toBe(50);
    // Scrolling to the end reads the next page; the tabs and the search stay in view.
    await popup.getByRole('button', { name: 'Load more' }).scrollIntoViewIfNeeded();
    await expect.poll(() => count.textContent()).toBe('100 profiles');
    expect(await popup.getByRole('listitem').count()).toBe(100);
    await rowOf(popup, nameOf(10)).scrollIntoViewIfNeeded();
    for (const control of [search, popup.getByRole('link', { name: 'Automation' })]) {
      const box = await control.boundingBox();
      expect(box && box.y >= 0 && box.y < 100, 'stays at the top of the popup').toBe(true);
      await control.click({ trial: true });
    }

    await search.fill('');
    await popup.getByRole('button', { name: `More actions for ${nameOf(COUNT)}` }).click();
    await rowOf(popup, nameOf(COUNT)).getByRole('button', { name: 'Show profiles tagged vip' }).click();
    await popup.getByText('Tagged vip').waitFor();
    await expect.poll(() => count.textContent()).toBe('50 of 100 profiles');
    await popup.getByRole('button', { name: 'Show every tag' }).click();
    await expect.poll(() => count.textContent()).toBe(`50 of ${COUNT} profiles`);
  });

  it('names a running profile in Sessions though it is far past the page listed', async () => {
    popup = await extension.openPopup('#/profiles');
    const search = popup.getByLabel('Search profiles');
    await search.fill('Scale 0500');
    await popup.getByRole('button', { name: 'Start Scale 0500' }).click();
    await shownUnlessRefused(popup, popup.getByRole('button', { name: 'Stop Scale 0500' }));
    // The list goes back to its first page, the newest fifty, without the running profile.
    await search.fill('');
    await rowOf(popup, nameOf(COUNT)).waitFor();
    await expect(rowOf(popup, 'Scale 0500').count()).resolves.toBe(0);

    await goTo(popup, 'Sessions');
    await popup.getByRole('button', { name: 'Stop Scale 0500' }).click();
    await popup.getByText('No sessions are running: start one from Profiles.').waitFor();
    const { data } = await api.get<{ data: Session[] }>('/v1/sessions?status=running');
    expect(data).toEqual([]);
  });

  it('finds a profile to run a script on the same way', async () => {
    await goTo(popup, 'Automation');
    await popup.getByLabel('Find a profile').fill('Scale 0777');
    await expect.poll(() => pickable(popup)).toEqual(['Scale 0777']);
  });
});

describe('no headless tell', () => {
  it('a session started from the popup presents a normal Chrome user agent to pages and on the wire', async () => {
    const agents: string[] = [];
    const site = createServer((request, response) => {
      agents.push(request.headers['user-agent'] ?? '');
      response.setHeader('Content-Type', 'text/html');
      response.end('<!doctype html><title>user agent</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    cleanup.add(site, (it) => new Promise((resolve) => it.close(resolve)));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    await api.send('POST', '/v1/profiles', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Plain agent' }),
    });
    popup = await extension.openPopup('#/profiles');
    await popup.getByLabel('Search profiles').fill('Plain agent');
    await popup.getByRole('button', { name: 'Start Plain agent' }).click();
    await shownUnlessRefused(popup, popup.getByRole('button', { name: 'Stop Plain agent' }));

    const session = await eventually('the session to run', async () => {
      const { data } = await api.get<{ data: Session[] }>('/v1/sessions?status=running');
      return data[0];
    });
    expect(session.headless).toBe(true);
    const remote = await chromium.connectOverCDP(session.cdp_url ?? '');
    try {
      const page = await (remote.contexts()[0] ?? (await remote.newContext())).newPage();
      await page.goto(origin);
      const userAgent = await page.evaluate(() => navigator.userAgent);
      expect(userAgent).toMatch(
        /^Mozilla\/5\.0 \(X11; Linux x86_64\) .* Chrome\/\d+\.0\.0\.0 Safari\/537\.36$/,
      );
      // The page and whatever else the browser asked the site for (its icon) carried the same.
      expect([...new Set(agents)]).toEqual([userAgent]);
    } finally {
      await remote.close();
    }
    await popup.getByRole('button', { name: 'Stop Plain agent' }).click();
    await shownUnlessRefused(popup, popup.getByRole('button', { name: 'Start Plain agent' }));
  });
});

describe('editing', () => {
  /** The account's profiles named `prefix`…, by the service. */
  async function profilesNamed(prefix: string): Promise<Profile[]> {
    const { data } = await api.get<{ data: Profile[] }>(
      `/v1/profiles?q=${encodeURIComponent(prefix)}&limit=100`,
    );
    return data;
  }

  it('renames, re-tags and sets the fingerprint of a profile, then clones it', async () => {
    const created = await api.send('POST', '/v1/profiles', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: 'Edit me',
        proxy: 'http://dora:pw-kept@proxy.example:8080',
        tags: ['old'],
      }),
    });
    expect(created.status).toBe(201);
    popup = await extension.openPopup('#/profiles');
    await popup.getByLabel('Search profiles').fill('Edit me');
    await rowAction(popup, 'Edit me', 'Edit');
    // The form's first field has the focus.
    await expect
      .poll(() => popup.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent))
      .toBe('Profile name');
    await popup.getByLabel('Profile name').fill('Edited');
    await popup.getByLabel('Tags').fill('new, eu');
    await popup.getByText('Fingerprint').click();
    await popup.getByLabel('Start from').selectOption({ label: 'German · Berlin · 1366×768' });
    await popup.getByRole('button', { name: 'Save' }).click();
    // The focus lands on the profile saved.
    await expect.poll(() => focusedLabel(popup)).toBe('More actions for Edited');
    await popup.getByLabel('Search profiles').fill('Edited');
    await popup.getByRole('status').filter({ hasText: '1 profile' }).waitFor();
    await rowOf(popup, 'Edited').waitFor();

    const [edited] = await profilesNamed('Edited');
    expect(edited).toMatchObject({
      tags: ['new', 'eu'],
      proxy: 'http://dora@proxy.example:8080',
      fingerprint: { language: 'de-DE', timezone: 'Europe/Berlin', screen: { width: 1366, height: 768 } },
    });
    // The preset names no user agent: the identity's agrees with everything else a page reads.
    expect(edited?.fingerprint.user_agent).toBeUndefined();

    await rowAction(popup, 'Edited', 'Clone');
    await shownUnlessRefused(popup, rowOf(popup, 'Edited (copy)'));
    const [copy] = await profilesNamed('Edited (copy)');
    expect(copy).toMatchObject({
      proxy: edited?.proxy,
      tags: edited?.tags,
      fingerprint: edited?.fingerprint,
    });
  });

  it('starts a selection, then deletes it running, saying beforehand what it costs', async () => {
    for (const name of ['Bulk 1', 'Bulk 2', 'Bulk 3'])
      await api.send('POST', '/v1/profiles', {
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    await popup.getByLabel('Search profiles').fill('Bulk');
    for (const name of ['Bulk 1', 'Bulk 2', 'Bulk 3']) await popup.getByLabel(`Select ${name}`).check();
    await popup.getByText('3 selected').waitFor();
    // A plan without an hourly limit, and room for three more sessions: nothing to ask.
    await popup.getByRole('button', { name: 'Start 3' }).click();
    await popup.getByRole('status').filter({ hasText: 'Started 3 of 3.' }).waitFor();
    expect((await profilesNamed('Bulk')).map(({ status }) => status)).toEqual([
      'running',
      'running',
      'running',
    ]);

    for (const name of ['Bulk 1', 'Bulk 2', 'Bulk 3']) await popup.getByLabel(`Select ${name}`).check();
    await popup.getByRole('button', { name: 'Delete 3' }).click();
    await popup
      .getByRole('group', { name: /^Delete 3 profiles/ })
      .getByRole('button', { name: 'Delete 3' })
      .click();
    await popup.getByText('No profile has that in its name or tags.').waitFor();
    expect(await profilesNamed('Bulk')).toEqual([]);
    const { data: running } = await api.get<{ data: Session[] }>('/v1/sessions?status=running');
    expect(running).toEqual([]);
  });

  it('deletes a proxy from the popup, and says so in a sentence while a profile uses it', async () => {
    const saved = await api.send('POST', '/v1/proxies', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'In use', scheme: 'http', host: '10.9.9.9', port: 3128 }),
    });
    const proxy = (await saved.json()) as ProxyConfig;
    const user = await api.send('POST', '/v1/profiles', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Proxy user', proxy_id: proxy.id }),
    });
    const { id: userId } = (await user.json()) as Profile;
    popup = await extension.openPopup('#/proxies');
    // Escape closes the question and gives the focus back to the button that asked it.
    await popup.getByRole('button', { name: 'Delete In use' }).click();
    await popup.getByRole('group', { name: 'Delete the proxy In use?' }).waitFor();
    await expect.poll(() => focusedLabel(popup)).toBe('Cancel');
    await popup.keyboard.press('Escape');
    await expect.poll(() => focusedLabel(popup)).toBe('Delete In use');
    await popup.getByRole('button', { name: 'Delete In use' }).click();
    await popup
      .getByRole('group', { name: 'Delete the proxy In use?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await popup.getByRole('alert').filter({ hasText: '1 profile uses this proxy' }).waitFor();
    await expect.poll(() => focusedLabel(popup)).toBe('Delete In use');

    await api.send('DELETE', `/v1/profiles/${userId}`);
    await popup.getByRole('button', { name: 'Delete In use' }).click();
    await popup
      .getByRole('group', { name: 'Delete the proxy In use?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await rowOf(popup, 'In use').waitFor({ state: 'detached' });
    // With its row gone, the focus is on the view's heading, not lost to the page.
    await expect.poll(() => popup.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect((await api.send('GET', `/v1/proxies/${proxy.id}`)).status).toBe(404);
  });
});

describe('proxy tools', () => {
  it('checks a proxy through a local proxy, pastes a list with a line report, and matches a profile to its proxy', async () => {
    const proxy = await startAuthenticatingProxy('pat', 'pw-9');
    cleanup.add(proxy, (it) => it.close());
    popup = await extension.openPopup('#/proxies');
    await popup.getByText('Paste a list').click();
    await popup
      .getByLabel('Proxies, one a line: scheme://user:pass@host:port or host:port:user:pass')
      .fill(`127.0.0.1:${proxy.port}:pat:pw-9\nnot a proxy\nsocks5://10.1.1.1:1080\nsocks5://10.1.1.1:1080`);
    await popup.getByRole('button', { name: 'Add proxies' }).click();
    const report = popup.getByRole('status').filter({ hasText: 'Line 1' });
    await shownUnlessRefused(popup, report);
    expect(await report.textContent()).toBe(
      `Line 1: added 127.0.0.1:${proxy.port}.\n` +
        'Line 2: not added: must be scheme://user:pass@host:port or host:port:user:pass.\n' +
        'Line 3: added 10.1.1.1:1080.\n' +
        'Line 4: not added: the same proxy as line 3.\n' +
        'The lines not added are left in the box, to correct.',
    );
    expect(
      await popup
        .getByLabel('Proxies, one a line: scheme://user:pass@host:port or host:port:user:pass')
        .inputValue(),
    ).toBe('not a proxy\nsocks5://10.1.1.1:1080');
    const { data } = await api.get<{ data: ProxyConfig[] }>('/v1/proxies?limit=100');
    expect(data.find((saved) => saved.name === `127.0.0.1:${proxy.port}`)).toMatchObject({
      has_password: true,
    });
    // The pasted password was kept nowhere in the extension.
    expect(await allStorage(popup)).not.toContain('pw-9');

    const name = `127.0.0.1:${proxy.port}`;
    await popup.getByRole('button', { name: `Check ${name}` }).click();
    await rowOf(popup, name).getByText('Works: exit IP 203.0.113.9 (Asia/Tokyo)', { exact: false }).waitFor();
    expect(proxy.seen.at(-1)).toMatchObject({ authorized: true });
    await popup.getByRole('button', { name: 'Check 10.1.1.1:1080' }).click();
    await rowOf(popup, '10.1.1.1:1080')
      .getByText(/^Does not work: /)
      .waitFor();

    const created = await api.send('POST', '/v1/profiles', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Tokyo shopper' }),
    });
    expect(created.status).toBe(201);
    popup = await extension.openPopup('#/profiles');
    await popup.getByLabel('Search profiles').fill('Tokyo shopper');
    await rowAction(popup, 'Tokyo shopper', 'Edit');
    await popup.getByLabel('Proxy', { exact: true }).selectOption({ label: name });
    await popup.getByText('Fingerprint').click();
    await popup.getByRole('button', { name: "Match the proxy's time zone" }).click();
    await expect.poll(() => popup.getByLabel('Time zone').inputValue()).toBe('Asia/Tokyo');
  });
});

describe('cookies in and out', () => {
  it('imports a paste and a file from the popup, exports cookies.txt, and a page of the next session gets them', async () => {
    const site = createServer((request, response) =>
      response.setHeader('Content-Type', 'text/plain').end(`cookies: ${request.headers.cookie ?? ''}`),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    cleanup.add(site, (it) => new Promise((resolve) => it.close(resolve)));
    const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const created = await api.send('POST', '/v1/profiles', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Cookie jar' }),
    });
    const { id } = (await created.json()) as Profile;

    popup = await extension.openPopup('#/profiles');
    await popup.getByLabel('Search profiles').fill('Cookie jar');
    await rowAction(popup, 'Cookie jar', 'Edit');
    await popup.getByText('Cookies', { exact: true }).click();
    await popup
      .getByLabel('Paste cookies (JSON or cookies.txt)')
      .fill(JSON.stringify([{ name: 'sid', value: 'from-popup', domain: '127.0.0.1', expires }]));
    await popup.getByRole('button', { name: 'Import cookies' }).click();
    await shownUnlessRefused(popup, popup.getByText('Cookies imported: 1.'));
    await popup.getByLabel('Or read them from a file').setInputFiles({
      name: 'cookies.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from(
        `# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tFALSE\t${expires}\ttheme\tdark\n`,
      ),
    });
    await expect
      .poll(() => popup.getByLabel('Paste cookies (JSON or cookies.txt)').inputValue())
      .toContain('theme');
    await popup.getByRole('button', { name: 'Import cookies' }).click();
    await shownUnlessRefused(popup, popup.getByText('Cookies imported: 1.'));

    const [download] = await Promise.all([
      popup.waitForEvent('download'),
      popup.getByRole('button', { name: 'Export as cookies.txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('Cookie jar cookies.txt');
    const exported = readFileSync(await download.path(), 'utf8');
    expect(exported).toContain(`127.0.0.1\tFALSE\t/\tFALSE\t${expires}\tsid\tfrom-popup\n`);
    expect(exported).toContain(`127.0.0.1\tFALSE\t/\tFALSE\t${expires}\ttheme\tdark\n`);

    const queued = await api.send('POST', '/v1/automation/run', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        profile_id: id,
        script: {
          steps: [
            { action: 'goto', url: `${origin}/` },
            { action: 'extract', selector: 'body', name: 'seen' },
          ],
        },
      }),
    });
    const run = (await queued.json()) as AutomationRun;
    const finished = await api.get<AutomationRun>(
      `/v1/automation/status?run_id=${run.id}&wait=25&until=finished`,
    );
    expect(finished.output.seen).toMatch(/sid=from-popup/);
    expect(finished.output.seen).toMatch(/theme=dark/);
  });
});

describe('runs a person can read', () => {
  it('answers a typo with the valid actions, and a refused page with a sentence and its detail behind a toggle', async () => {
    await api.send('POST', '/v1/profiles', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Runner' }),
    });
    popup = await extension.openPopup('#/automation');
    await popup.getByLabel('Find a profile').fill('Runner');
    await expect.poll(() => pickable(popup)).toEqual(['Runner']);
    await pick(popup, 'Runner');
    const script = popup.getByLabel('Script (JSON steps)');
    await script.fill(JSON.stringify({ steps: [{ action: 'clik', selector: '#buy' }] }));
    await popup
      .getByText(
        'The field “action” must be one of goto, click, type, wait_for, extract, evaluate, screenshot.',
      )
      .waitFor();

    await script.fill(JSON.stringify({ steps: [{ action: 'goto', url: 'http://127.0.0.1:1/' }] }));
    await popup.getByLabel('Script name').fill('Unsafe port');
    await popup.getByRole('button', { name: 'Run', exact: true }).click();
    const sentence =
      "Step 1 (goto 'http://127.0.0.1:1/') failed: the page did not load: the browser refuses to open that port, " +
      'which is kept for other services than the web.';
    await popup.getByText(sentence, { exact: true }).waitFor();
    expect(await popup.getByText(sentence, { exact: true }).count()).toBe(1);
    await popup.getByText('Technical detail').click();
    await popup.getByText('net::ERR_UNSAFE_PORT', { exact: true }).waitFor();
    // The result is above the script, in view without scrolling.
    const box = await popup.getByText(sentence, { exact: true }).boundingBox();
    expect(box && box.y + box.height <= (popup.viewportSize()?.height ?? 0)).toBe(true);
    // On screen, the failure counts as seen: the toolbar badge drops its "!".
    await eventually('the failed run on screen to be seen, and the badge without its "!"', async () => {
      const runs = await popup.evaluate(async () => {
        const { storage } = (globalThis as unknown as { chrome: typeof browser }).chrome;
        return (await storage.local.get('watchedRuns')).watchedRuns as {
          run: { name: string };
          seen: boolean;
        }[];
      });
      const seen = runs.find(({ run }) => run.name === 'Unsafe port')?.seen;
      return seen && !(await badge(extension.currentWorker())).text.includes('!') ? true : undefined;
    });
  });
});

describe('run history, re-run, several profiles', () => {
  const script = { steps: [{ action: 'goto', url: 'about:blank' }] };
  const runsOf = async (profileId: string) =>
    (await api.get<{ data: AutomationRun[] }>(`/v1/automation/status?profile_id=${profileId}`)).data;

  async function createProfile(name: string): Promise<Profile> {
    const answer = await api.send('POST', '/v1/profiles', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(answer.status).toBe(201);
    return (await answer.json()) as Profile;
  }

  it('shows a profile’s runs made elsewhere, runs one again, and runs a script on two profiles', async () => {
    const first = await createProfile('Historic A');
    const second = await createProfile('Historic B');
    const made = await api.send('POST', '/v1/automation/run', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ profile_id: first.id, script, name: 'Made through the API' }),
    });
    expect(made.status).toBe(202);
    const { id } = (await made.json()) as AutomationRun;
    await api.get(`/v1/automation/status?run_id=${id}&wait=25&until=finished`);

    popup = await extension.openPopup('#/automation');
    await popup.getByLabel('Find a profile').fill('Historic A');
    await expect.poll(() => pickable(popup)).toEqual(['Historic A']);
    // Picks the popup kept from earlier are named under the list, out of the search's sight too: cleared.
    const clear = popup.getByRole('button', { name: 'Clear picks' });
    if (await clear.count()) await clear.click();
    await pick(popup, 'Historic A');
    await popup.getByText("This profile's runs on the service").click();
    const earlier = rowOf(popup, 'Made through the API');
    await shownUnlessRefused(popup, earlier);
    expect(await earlier.locator('summary .status').textContent()).toBe('succeeded');
    await earlier.getByRole('button', { name: 'Run again' }).click();
    await expect
      .poll(async () => (await runsOf(first.id)).map((run) => run.name))
      .toEqual(['Made through the API', 'Made through the API']);

    await popup.getByLabel('Find a profile').fill('Historic');
    await expect.poll(async () => (await pickable(popup)).sort()).toEqual(['Historic A', 'Historic B']);
    await pick(popup, 'Historic B');
    await popup.getByText('This takes 2 requests; your plan has no hourly limit.').waitFor();
    await popup.getByLabel('Script (JSON steps)').fill(JSON.stringify(script));
    await popup.getByLabel('Script name').fill('On both');
    await popup.getByRole('button', { name: 'Run on 2 profiles' }).click();
    // The outcome takes the focus.
    await expect
      .poll(() => popup.evaluate(() => document.activeElement?.textContent))
      .toBe('Started 2 of 2 runs.');
    for (const profile of [first, second]) {
      expect((await runsOf(profile.id)).filter((run) => run.name === 'On both')).toHaveLength(1);
    }
  });
});

describe('accessibility', () => {
  it('axe-core finds nothing wrong in any popup view, form or the options page', async () => {
    expect(focusAfterConnect).toMatch(/^Connected to E2E controller on the enterprise plan/);
    const found: Record<string, string[]> = { 'set-up': setupViolations, connected: connectedViolations };
    const check = async (view: string) => {
      found[view] = await axeViolations(popup);
    };
    const created = await api.send('POST', '/v1/profiles', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Looked at', tags: ['axe'] }),
    });
    expect(created.status).toBe(201);
    popup = await extension.openPopup('#/profiles');
    // Running, so that the Sessions view has a row with its Copy CDP URL.
    await popup.getByLabel('Search profiles').fill('Looked at');
    await popup.getByRole('button', { name: 'Start Looked at' }).click();
    await shownUnlessRefused(popup, popup.getByRole('button', { name: 'Stop Looked at' }));
    await popup
      .getByLabel(/^Select /)
      .first()
      .waitFor();
    await check('profiles');
    await popup
      .getByLabel(/^Select /)
      .first()
      .check();
    await check('profiles with a selection');
    await popup.getByRole('button', { name: 'New profile' }).click();
    await popup.getByText('Fingerprint').click();
    await check('new profile form');
    await popup.keyboard.press('Escape');
    await goTo(popup, 'Proxies');
    await popup.getByRole('button', { name: 'New proxy' }).first().waitFor();
    await check('proxies');
    await popup.getByRole('button', { name: 'New proxy' }).click();
    await check('new proxy form');
    await popup.getByRole('button', { name: 'Cancel' }).click();
    await goTo(popup, 'Sessions');
    // By its label's start: the view names a profile that is not in the loaded page of the list by its id.
    await popup
      .getByRole('button', { name: /^Copy CDP URL of / })
      .first()
      .waitFor();
    await check('sessions');
    await goTo(popup, 'Automation');
    await popup.getByLabel('Find a profile').waitFor();
    await check('automation');
    const options = await extension.context.newPage();
    await options.goto(extension.popupUrl.replace('popup.html', 'options.html'));
    await options.getByRole('heading').first().waitFor();
    found.options = await axeViolations(options);
    await options.close();
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((view) => [view, []])));
  });
});
