/**
 * The popup's profile form against the real service in real Chromium: a profile renamed, re-tagged, given a
 * fingerprint and cloned; cookies imported (pasted and from a file) and exported, which a page of the next
 * session gets.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import { controllerForFile, createProfile, profilesNamed } from './support/controller';
import { focusedLabel, rowAction, rowOf, shownUnlessRefused } from './support/popup';
import { serveOnLoopback } from './support/site';

const controller = controllerForFile();

describe('editing', () => {
  it('renames, re-tags and sets the fingerprint of a profile, then clones it', async () => {
    const { api, extension } = controller;
    await createProfile(api, {
      name: 'Edit me',
      proxy: 'http://dora:pw-kept@proxy.example:8080',
      tags: ['old'],
    });
    const popup = await extension.openPopup('#/profiles');
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

    const [edited] = await profilesNamed(api, 'Edited');
    expect(edited).toMatchObject({
      tags: ['new', 'eu'],
      proxy: 'http://dora@proxy.example:8080',
      fingerprint: { language: 'de-DE', timezone: 'Europe/Berlin', screen: { width: 1366, height: 768 } },
    });
    // The preset names no user agent: the identity's agrees with everything else a page reads.
    expect(edited?.fingerprint.user_agent).toBeUndefined();

    await rowAction(popup, 'Edited', 'Clone');
    await shownUnlessRefused(popup, rowOf(popup, 'Edited (copy)'));
    const [copy] = await profilesNamed(api, 'Edited (copy)');
    expect(copy).toMatchObject({
      proxy: edited?.proxy,
      tags: edited?.tags,
      fingerprint: edited?.fingerprint,
    });
  });
});

describe('cookies in and out', () => {
  it('imports a paste and a file from the popup, exports cookies.txt, and a page of the next session gets them', async () => {
    const { api, extension, cleanup } = controller;
    const origin = await serveOnLoopback(cleanup, (request, response) =>
      response.setHeader('Content-Type', 'text/plain').end(`cookies: ${request.headers.cookie ?? ''}`),
    );
    const expires = Math.floor(Date.now() / 1000) + 3600;
    const { id } = await createProfile(api, { name: 'Cookie jar' });

    const popup = await extension.openPopup('#/profiles');
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
