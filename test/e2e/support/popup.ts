import type { Locator, Page } from 'playwright-core';
import type { browser } from 'wxt/browser';
import { eventually } from './wait';

/** Opens one of the popup's views from its navigation, by the link's name. */
export async function goTo(
  popup: Page,
  view: 'Profiles' | 'Proxies' | 'Sessions' | 'Automation' | 'Handoffs',
): Promise<void> {
  await popup.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: view }).click();
}

/**
 * Waits until `wanted` shows, and fails at once with the popup's own sentence if an alert shows instead: a
 * refused action then reads as what the person was told.
 */
export async function shownUnlessRefused(popup: Page, wanted: Locator): Promise<void> {
  const alert = popup.getByRole('alert');
  await wanted.or(alert).first().waitFor();
  if (await wanted.first().isVisible()) return;
  throw new Error(`the popup said instead: ${await alert.first().textContent()}`);
}

/** A row of a list, told apart by the name it shows. */
export function rowOf(popup: Page, name: string): Locator {
  return popup.getByRole('listitem').filter({ has: popup.getByText(name, { exact: true }) });
}

/** How many of the Profiles list's rows are whole on screen, between its sticky toolbar and the popup's foot. */
export function wholeRows(popup: Page): Promise<number> {
  return popup.locator('ul.rows > li').evaluateAll((rows) => {
    const top = document.querySelector('.toolbar')?.getBoundingClientRect().bottom ?? 0;
    const bottom = document.querySelector('footer')?.getBoundingClientRect().top ?? innerHeight;
    return rows.filter((row) => {
      const box = row.getBoundingClientRect();
      return box.top >= top && box.bottom <= bottom;
    }).length;
  });
}

/** Chooses one of a profile row's actions behind its ⋯ menu: `Edit`, `Clone`, `Delete`. */
export async function rowAction(popup: Page, profile: string, action: string): Promise<void> {
  await popup.getByRole('button', { name: `More actions for ${profile}` }).click();
  await popup.getByRole('button', { name: `${action} ${profile}` }).click();
}

/** The names of the profiles Automation's picker lists (not its "Tick all N shown"). */
export function pickable(popup: Page): Promise<string[]> {
  return popup.getByRole('group', { name: 'Profiles to run on' }).locator('li label').allTextContents();
}

/** Ticks a profile in Automation's picker. */
export function pick(popup: Page, name: string): Promise<void> {
  return popup.getByRole('group', { name: 'Profiles to run on' }).getByRole('checkbox', { name }).check();
}

/**
 * Clears the picks the popup kept from earlier runs (in this browser), which Automation names under its list
 * out of the search's sight and would run on too.
 */
export async function clearKeptPicks(popup: Page): Promise<void> {
  const clear = popup.getByRole('button', { name: 'Clear picks' });
  if (await clear.count()) await clear.click();
}

/** Saves `script` by `name` from the Automation view, as a person would, for the bulk bar's Run script…. */
export async function saveScript(popup: Page, name: string, script: object): Promise<void> {
  await popup.getByLabel('Script (JSON steps)').fill(JSON.stringify(script));
  await popup.getByLabel('Script name').fill(name);
  await popup.getByRole('button', { name: 'Save script' }).click();
}

/** Runs `script` as `name` from the Automation view and waits until its row says it succeeded; gives the row. */
export async function runToSuccess(popup: Page, name: string, script: object): Promise<Locator> {
  await popup.getByLabel('Script (JSON steps)').fill(JSON.stringify(script, null, 2));
  await popup.getByLabel('Script name').fill(name);
  await popup.getByRole('button', { name: 'Run', exact: true }).click();
  const run = rowOf(popup, name);
  await shownUnlessRefused(popup, run);
  await eventually('the run to succeed in the popup', async () =>
    (await run.locator('summary .status').textContent()) === 'succeeded' ? true : undefined,
  );
  return run;
}

/** The accessible label (else the text) of the element with the focus. */
export function focusedLabel(page: Page): Promise<string | null | undefined> {
  return page.evaluate(
    () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent,
  );
}

/** Everything the extension keeps, in every storage area, as one text. */
export function allStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const { storage } = (globalThis as unknown as { chrome: typeof browser }).chrome;
    const areas = [storage.local, storage.session];
    return JSON.stringify(await Promise.all(areas.map((area) => area.get(null))));
  });
}
