/**
 * The popup's Profiles list as a controller for every profile, against the real service in real Chromium: a
 * thousand profiles (the account's only ones) searched by name and tag and paged by the service, and named in
 * Sessions and Automation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../lib/api/schemas/sessions';
import { controllerForFile, createProfile } from './support/controller';
import { goTo, pickable, rowOf, shownUnlessRefused, wholeRows } from './support/popup';

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
      const size = (row: Element, selector: string) =>
        Number.parseFloat(getComputedStyle(row.querySelector(selector) as Element).fontSize);
      return {
        buttons: rows[0]?.querySelectorAll('button').length,
        nameBigger: rows.every((row) => size(row, '.name') >= size(row, '.status')),
      };
    });
    expect(fit).toEqual({ buttons: 2, nameBigger: true });
    expect(await wholeRows(popup)).toBeGreaterThanOrEqual(8);

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
    const vip = popup.getByRole('group', { name: 'Show only a tag' }).getByRole('button', { name: '#vip' });
    await expect.poll(() => vip.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => count.textContent()).toBe('50 of 100 profiles');
    await vip.click();
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
