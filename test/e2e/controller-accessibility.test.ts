/**
 * The popup and the options page read by axe-core, against the real service in real Chromium: the set-up
 * view, the result of Connect (where the focus goes), every view and form, and the options page.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from './support/axe';
import { controllerForFile, createProfile } from './support/controller';
import { goTo, shownUnlessRefused } from './support/popup';
import { eventually } from './support/wait';

/** What axe-core found on the set-up view, and on its result once connected (checked with the other views). */
let setupViolations: string[];
let connectedViolations: string[];
/** Where the focus went once Connect had its answer. */
let focusAfterConnect: string | null | undefined;

const controller = controllerForFile({
  onSetupView: async (popup) => {
    setupViolations = await axeViolations(popup);
  },
});

beforeAll(async () => {
  const { popup } = controller;
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

describe('accessibility', () => {
  it('axe-core finds nothing wrong in any popup view, form or the options page', async () => {
    const { api, extension } = controller;
    expect(focusAfterConnect).toMatch(/^Connected to E2E controller on the enterprise plan/);
    const found: Record<string, string[]> = { 'set-up': setupViolations, connected: connectedViolations };
    const check = async (view: string) => {
      found[view] = await axeViolations(popup);
    };
    await createProfile(api, { name: 'Looked at', tags: ['axe'] });
    const popup = await extension.openPopup('#/profiles');
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
    await popup.locator('summary', { hasText: 'Identity' }).click();
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
