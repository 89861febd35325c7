/**
 * The popup's profiles one by one and a few at a time, against the real service in real Chromium: a profile
 * renamed, re-tagged, given a fingerprint and cloned; cookies imported (pasted and from a file) and exported,
 * which a page of the next session gets; a selection started and deleted; a session started from the list that
 * looks like a normal Chrome.
 */
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { Session } from '../../lib/api/schemas/sessions';
import { controllerForFile, createProfile, profilesNamed } from './support/controller';
import { focusedLabel, rowAction, rowOf, shownUnlessRefused } from './support/popup';
import { serveOnLoopback } from './support/site';
import { eventually } from './support/wait';

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
    // A search the new name matches too: a row the search no longer matches leaves the list when it comes back.
    await popup.getByLabel('Search profiles').fill('Edit');
    await rowAction(popup, 'Edit me', 'Edit');
    // The form's first field has the focus.
    await expect
      .poll(() => popup.evaluate(() => (document.activeElement as HTMLInputElement).labels?.[0]?.textContent))
      .toBe('Profile name');
    await popup.getByLabel('Profile name').fill('Edited');
    await popup.getByLabel('Tags').fill('new, eu');
    // A saved profile's Identity section is open.
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
    await popup.getByRole('status').filter({ hasText: 'Starting 3: 3 now, 0 waiting for room.' }).waitFor();
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
    await popup.getByText('No profile has that in its name, tags, notes or proxy.').waitFor();
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
