/**
 * The manager, a table of every profile in a tab, at a thousand profiles against the real service in real
 * Chromium: at least 20 rows whole at 1440×900 with only the rows on screen drawn, the order by a header, a
 * range selected with Shift+click and one more with Ctrl+click, tags added to that selection through the popup's
 * bulk action, a note edited in place and put back with Undo, and the keyboard.
 */
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../lib/api/schemas/profiles';
import { axeViolations } from './support/axe';
import { controllerForFile, createProfile } from './support/controller';
import { saveScreenshot } from './support/screenshots';

const controller = controllerForFile();
const COUNT = 1000;
const nameOf = (n: number) => `Fleet ${String(n).padStart(4, '0')}`;

let manager: Page;
const table = () => manager.getByRole('table', { name: 'Profiles' });
const count = () => manager.getByRole('status').first();
/** What the bulk actions' bar says is selected. */
const selected = () => manager.locator('.bulk-slot').getByRole('status').first().textContent();
const row = (name: string) =>
  table()
    .getByRole('row')
    .filter({ has: manager.getByText(name, { exact: true }) });

/** The rows of the table wholly inside its scroll box. */
function rowsWhole(page: Page): Promise<number> {
  return page.evaluate(() => {
    const box = document.querySelector('.table-box')?.getBoundingClientRect();
    const head = document.querySelector('thead')?.getBoundingClientRect();
    if (!box || !head) return 0;
    return [...document.querySelectorAll('tbody tr:not(.spacer)')].filter((tr) => {
      const { top, bottom } = tr.getBoundingClientRect();
      return top >= head.bottom - 1 && bottom <= Math.min(box.bottom, innerHeight) + 1;
    }).length;
  });
}

describe('the manager at a thousand profiles', () => {
  beforeAll(async () => {
    const { api, extension } = controller;
    for (let start = 0; start < COUNT; start += 25) {
      await Promise.all(
        Array.from({ length: 25 }, (_, n) =>
          createProfile(api, { name: nameOf(start + n + 1), tags: [(start + n) % 2 ? 'odd' : 'even'] }),
        ),
      );
    }
    manager = await extension.context.newPage();
    await manager.setViewportSize({ width: 1440, height: 900 });
    await manager.goto(extension.popupUrl.replace('popup.html', 'manager.html'));
    await manager
      .getByRole('status')
      .filter({ hasText: `${COUNT} profiles` })
      .waitFor({ timeout: 30_000 });
  }, 300_000);

  it('shows 20 rows and more whole at 1440×900, draws only those on screen, and passes axe', async () => {
    // Newest first: the last made is the first row.
    await row(nameOf(COUNT)).waitFor();
    expect(await rowsWhole(manager)).toBeGreaterThanOrEqual(20);
    expect(await table().locator('tbody tr:not(.spacer)').count()).toBeLessThan(60);
    expect(await axeViolations(manager)).toEqual([]);
    await saveScreenshot(manager, 'manager', 900);
  });

  it('sorts by a header on the service and reads the rows scrolled to', async () => {
    await table().getByRole('button', { name: 'Name' }).click();
    await expect
      .poll(() => table().locator('tbody tr:not(.spacer)').first().textContent())
      .toContain(nameOf(1));
    expect(await table().getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe(
      'ascending',
    );
    await manager.locator('.table-box').evaluate((box) => {
      box.scrollTop = box.scrollHeight;
    });
    await row(nameOf(COUNT)).waitFor({ timeout: 30_000 });
    await manager.locator('.table-box').evaluate((box) => {
      box.scrollTop = 0;
    });
    await row(nameOf(1)).waitFor();
  });

  it('selects a range with Shift+click and one more with Ctrl+click, and tags them in one request', async () => {
    await row(nameOf(1)).getByText(nameOf(1)).click();
    await row(nameOf(10))
      .getByText(nameOf(10))
      .click({ modifiers: ['Shift'] });
    await expect.poll(selected).toBe('10 selected');
    await row(nameOf(12))
      .getByText(nameOf(12))
      .click({ modifiers: ['Control'] });
    await expect.poll(selected).toBe('11 selected');
    await manager.getByRole('button', { name: 'Tags…' }).click();
    await manager.locator('fieldset.confirm').getByLabel('Tags').fill('picked');
    await manager.getByRole('button', { name: 'Add to 11' }).click();
    await manager.getByRole('status').filter({ hasText: 'Tagged 11 of 11.' }).waitFor();
    const { data } = await controller.api.get<{ data: Profile[] }>(
      '/v1/profiles?tag=picked&sort=name&limit=20',
    );
    expect(data.map(({ name }) => name)).toEqual([
      ...Array.from({ length: 10 }, (_, n) => nameOf(n + 1)),
      nameOf(12),
    ]);
  });

  it('edits a note in place and puts it back with Undo', async () => {
    const notes = row(nameOf(3)).locator('td').nth(6);
    await notes.dblclick();
    await manager.getByLabel(`Edit Notes of ${nameOf(3)}`).fill('Ships to Lyon');
    await manager.keyboard.press('Enter');
    await manager
      .getByRole('status')
      .filter({ hasText: `Saved the Notes of ${nameOf(3)}.` })
      .waitFor();
    await expect.poll(() => notes.textContent()).toBe('Ships to Lyon');
    const noteOf = async () =>
      (
        await controller.api.get<{ data: Profile[] }>(
          `/v1/profiles?q=${encodeURIComponent(nameOf(3))}&limit=1`,
        )
      ).data[0]?.notes;
    expect(await noteOf()).toBe('Ships to Lyon');
    await manager.getByRole('button', { name: 'Undo' }).click();
    await manager
      .getByRole('status')
      .filter({ hasText: `Put back the Notes of ${nameOf(3)}.` })
      .waitFor();
    expect(await noteOf()).toBe('');
  });

  it('exports the selection and the filter as CSV, and imports a sheet after a preview of its rows and problems', async () => {
    const { api } = controller;
    // The selection tagged above, one by one: ten and one more.
    await manager.getByLabel('Search profiles').fill('#picked');
    await manager.getByRole('status').filter({ hasText: '11 profiles' }).waitFor();
    await row(nameOf(1)).getByText(nameOf(1)).click();
    await row(nameOf(3))
      .getByText(nameOf(3))
      .click({ modifiers: ['Shift'] });
    const [chosen] = await Promise.all([
      manager.waitForEvent('download'),
      manager.getByRole('button', { name: 'Export 3 as CSV' }).click(),
    ]);
    const sheet = await readFile((await chosen.path()) as string, 'utf8');
    expect(sheet.trimEnd().split('\r\n')).toEqual([
      'name,proxy,tags,notes',
      ...[1, 2, 3].map((n) => `${nameOf(n)},,${n % 2 ? 'even' : 'odd'};picked,`),
    ]);
    await row(nameOf(1)).focus();
    await manager.keyboard.press('Escape');
    const [filtered] = await Promise.all([
      manager.waitForEvent('download'),
      manager.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect((await readFile((await filtered.path()) as string, 'utf8')).trimEnd().split('\r\n')).toHaveLength(
      12,
    );

    // The three exported, renamed, and a row with a proxy no one can use: a preview first, then the import.
    const changed = sheet.replaceAll('Fleet 000', 'Copy ').concat('Broken,ftp://nowhere,,\r\n');
    await manager.locator('input[type=file]').setInputFiles({
      name: 'fleet.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(changed),
    });
    const preview = manager.getByRole('region', { name: 'Import fleet.csv' });
    await preview.getByText('4 rows, 1 with a problem (not imported). The first rows:').waitFor();
    expect(await preview.locator('tr.refused').textContent()).toMatch(/^5Brokenftp:\/\/nowhere/);
    expect(await axeViolations(manager)).toEqual([]);
    await saveScreenshot(manager, 'manager-import', 900);
    expect((await api.get<{ total: number }>('/v1/profiles?q=Copy&total=true&limit=1')).total).toBe(0);
    await preview.getByRole('button', { name: 'Import 3' }).click();
    await manager.getByRole('status').filter({ hasText: 'Imported 3 of 4 rows.' }).waitFor();
    const copies = await api.get<{ data: Profile[] }>('/v1/profiles?q=Copy&sort=name&limit=10');
    expect(copies.data.map(({ name, tags }) => [name, tags])).toEqual([
      ['Copy 1', ['even', 'picked']],
      ['Copy 2', ['odd', 'picked']],
      ['Copy 3', ['even', 'picked']],
    ]);
    await manager.getByLabel('Search profiles').fill('');
    await manager
      .getByRole('status')
      .filter({ hasText: `${COUNT + 3} profiles` })
      .waitFor();
  });

  it('moves with the arrows, selects with Space, opens the row menu with Enter and searches on /', async () => {
    await row(nameOf(1)).focus();
    await manager.keyboard.press('Escape');
    await manager.keyboard.press('ArrowDown');
    await manager.keyboard.press('Space');
    await expect.poll(selected).toBe('1 selected');
    expect(await row(nameOf(2)).getAttribute('class')).toBe('selected');
    await manager.keyboard.press('Enter');
    await manager.getByRole('button', { name: `Clone ${nameOf(2)}` }).waitFor();
    await manager.keyboard.press('Escape');
    await manager.keyboard.press('/');
    await manager.keyboard.type('Fleet 0999');
    await expect.poll(() => count().textContent()).toBe('1 profile');
  });
});
