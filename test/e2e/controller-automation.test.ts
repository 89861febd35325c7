/**
 * The popup's Automation view against the real service in real Chromium: runs a person can read (a typo
 * answered with the valid actions, a refused page with a sentence), a profile's runs made elsewhere, a run
 * again, and one script on two profiles.
 */
import { describe, expect, it } from 'vitest';
import type { browser } from 'wxt/browser';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import { controllerForFile, createProfile } from './support/controller';
import { clearKeptPicks, pick, pickable, rowOf, shownUnlessRefused } from './support/popup';
import { eventually } from './support/wait';
import { badge } from './support/worker';

const controller = controllerForFile();

describe('runs a person can read', () => {
  it('answers a typo with the valid actions, and a refused page with a sentence and its detail behind a toggle', async () => {
    const { api, extension } = controller;
    await createProfile(api, { name: 'Runner' });
    const popup = await extension.openPopup('#/automation');
    await popup.getByLabel('Find a profile').fill('Runner');
    await expect.poll(() => pickable(popup)).toEqual(['Runner']);
    await clearKeptPicks(popup);
    await pick(popup, 'Runner');
    const script = popup.getByLabel('Script (JSON steps)');
    await script.fill(JSON.stringify({ steps: [{ action: 'clik', selector: '#buy' }] }));
    await popup
      .getByText(
        'The field “action” must be one of goto, click, type, wait_for, extract, evaluate, screenshot, ask_human.',
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
    (await controller.api.get<{ data: AutomationRun[] }>(`/v1/automation/status?profile_id=${profileId}`))
      .data;

  it('shows a profile’s runs made elsewhere, runs one again, and runs a script on two profiles', async () => {
    const { api, extension } = controller;
    const first = await createProfile(api, { name: 'Historic A' });
    const second = await createProfile(api, { name: 'Historic B' });
    const made = await api.send('POST', '/v1/automation/run', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ profile_id: first.id, script, name: 'Made through the API' }),
    });
    expect(made.status).toBe(202);
    const { id } = (await made.json()) as AutomationRun;
    await api.get(`/v1/automation/status?run_id=${id}&wait=25&until=finished`);

    const popup = await extension.openPopup('#/automation');
    await popup.getByLabel('Find a profile').fill('Historic A');
    await expect.poll(() => pickable(popup)).toEqual(['Historic A']);
    await clearKeptPicks(popup);
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
    await popup.getByText('One request for all of them; your plan has no hourly limit.').waitFor();
    await popup.getByLabel('Script (JSON steps)').fill(JSON.stringify(script));
    await popup.getByLabel('Script name').fill('On both');
    await popup.getByRole('button', { name: 'Run on 2 profiles' }).click();
    // The outcome takes the focus.
    await expect
      .poll(() => popup.evaluate(() => document.activeElement?.textContent))
      .toBe('Queued 2 of 2 as one batch: follow it in Automation.');
    for (const profile of [first, second]) {
      expect((await runsOf(profile.id)).filter((run) => run.name === 'On both')).toHaveLength(1);
    }
  });
});
