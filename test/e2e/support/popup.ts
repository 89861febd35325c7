import type { Locator, Page } from 'playwright-core';

/** Opens one of the popup's views from its navigation, by the link's name. */
export async function goTo(
  popup: Page,
  view: 'Profiles' | 'Proxies' | 'Sessions' | 'Automation',
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
