/**
 * The popup's Profiles list as a controller for every profile, against the real service in real Chromium: a
 * thousand profiles searched (by name and tag) and paged by the service, named in Sessions and Automation; a
 * selection started and deleted; a session started from the list that looks like a normal Chrome.
 */
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../lib/api/schemas/sessions';
import { controllerForFile, createProfile, profilesNamed } from './support/controller';
import { goTo, pickable, rowOf, shownUnlessRefused } from './support/popup';
import { serveOnLoopback } from './support/site';
import { eventually } from './support/wait';

const controller = controllerForFile();

describe('every profile', () => {
  const COUNT = 1000;
  const nameOf = (index: number) => `Scale ${String(index).padStart(4, '0')}`;

  beforeAll(async () => {
    const { api } = controller;
    // Every tenth is tagged "vip": a search for "vip" finds them by their tag.
    const indexes = Array.from({ length: COUNT }, (_, index) => index + 1);
    for (let start = 0; start < COUNT; start += 20) {
      await Promise.all(
        indexes
          .slice(start, start + 20)
          .map((index) => createProfile(api, { name: nameOf(index), tags: index % 10 === 0 ? ['vip'] : [] })),
      );
    }
  }, 300_000);

  it('searches a thousand profiles on the service by name and by tag, and pages as the person scrolls', async () => {
    const { extension } = controller;
    const popup = await extension.openPopup('#/profiles');
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
    const { api, extension } = controller;
    const popup = await extension.openPopup('#/profiles');
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
    const popup = await controller.extension.openPopup('#/profiles');
    await goTo(popup, 'Automation');
    await popup.getByLabel('Find a profile').fill('Scale 0777');
    await expect.poll(() => pickable(popup)).toEqual(['Scale 0777']);
  });
});

describe('a selection', () => {
  it('starts a selection, then deletes it running, saying beforehand what it costs', async () => {
    const { api, extension } = controller;
    for (const name of ['Bulk 1', 'Bulk 2', 'Bulk 3'])
      await api.send('POST', '/v1/profiles', {
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    const popup = await extension.openPopup('#/profiles');
    await popup.getByLabel('Search profiles').fill('Bulk');
    for (const name of ['Bulk 1', 'Bulk 2', 'Bulk 3']) await popup.getByLabel(`Select ${name}`).check();
    await popup.getByText('3 selected').waitFor();
    // A plan without an hourly limit, and room for three more sessions: nothing to ask.
    await popup.getByRole('button', { name: 'Start 3' }).click();
    await popup.getByRole('status').filter({ hasText: 'Started 3 of 3.' }).waitFor();
    expect((await profilesNamed(api, 'Bulk')).map(({ status }) => status)).toEqual([
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
    expect(await profilesNamed(api, 'Bulk')).toEqual([]);
    const { data: running } = await api.get<{ data: Session[] }>('/v1/sessions?status=running');
    expect(running).toEqual([]);
  });
});

describe('no headless tell', () => {
  it('a session started from the popup presents a normal Chrome user agent to pages and on the wire', async () => {
    const { api, extension, cleanup } = controller;
    const agents: string[] = [];
    const origin = await serveOnLoopback(cleanup, (request, response) => {
      agents.push(request.headers['user-agent'] ?? '');
      response.setHeader('Content-Type', 'text/html');
      response.end('<!doctype html><title>user agent</title>');
    });
    const { id } = await createProfile(api, { name: 'Plain agent' });
    const popup = await extension.openPopup('#/profiles');
    await popup.getByLabel('Search profiles').fill('Plain agent');
    await popup.getByRole('button', { name: 'Start Plain agent' }).click();
    await shownUnlessRefused(popup, popup.getByRole('button', { name: 'Stop Plain agent' }));

    const session = await eventually('the session to run', async () => {
      const { data } = await api.get<{ data: Session[] }>('/v1/sessions?status=running');
      return data.find((running) => running.profile_id === id);
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
