/**
 * A new user's first minutes with the built extension (its popup in a tab at a popup's size) and the real
 * service: set-up with a key from the service's command line, a proxy and a profile that uses it, a session
 * whose traffic goes through that proxy, a script run with its steps, output and screenshot, the worker's
 * notification and badge, then stopping the session, deleting the profile and editing the proxy. Saves the
 * README's screenshots of set-up and of a run on the way (the lists' are popup-at-scale's, at 300 profiles).
 */
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import type { Session } from '../../lib/api/schemas/sessions';
import { startAuthenticatingProxy } from '../support/browser-fixtures';
import { type ServiceHandle, startService } from '../support/harness';
import { cleanupStack } from './support/cleanup';
import { type Extension, openExtension } from './support/extension';
import { goTo, pick, rowAction, rowOf, runToSuccess, shownUnlessRefused } from './support/popup';
import { saveScreenshot } from './support/screenshots';
import { serviceReader } from './support/service-api';
import { SITE_TITLE, startSite } from './support/site';
import { eventually } from './support/wait';
import { badge, notificationIds, recordNotifications, takeNotifications } from './support/worker';

const ACCOUNT = 'E2E journey';
const PROXY = { name: 'Office proxy', user: 'pilot', password: 'open-sesame' };
const PROFILE = 'Shop';
const RUN = 'Read the shop page';
const EDITED = { name: 'Home proxy', port: 3128 };

const cleanup = cleanupStack();
let service: ServiceHandle;
let site: Awaited<ReturnType<typeof startSite>>;
let proxy: Awaited<ReturnType<typeof startAuthenticatingProxy>>;
let extension: Extension;
let popup: Page;
let api: ReturnType<typeof serviceReader>;
let key: string;

beforeAll(async () => {
  [service, site, proxy, extension] = await Promise.all([
    // Its pages and proxies are served on loopback, which sessions reach only when the operator allows it.
    startService({ env: { EGRESS_ALLOW: 'loopback' } }).then((started) =>
      cleanup.add(started, (it) => it.close()),
    ),
    startSite().then((started) => cleanup.add(started, (it) => it.close())),
    startAuthenticatingProxy(PROXY.user, PROXY.password).then((started) =>
      cleanup.add(started, (it) => it.close()),
    ),
    openExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
  key = await service.createKey('enterprise', ACCOUNT);
  api = serviceReader(service.baseUrl, key);
  popup = await extension.openPopup();
});

afterAll(() => cleanup.run());

describe('a new user in the popup', () => {
  it('sets up with a key the service’s command line made', async () => {
    const serviceUrl = popup.getByLabel('Service URL');
    // No service answers at the local address here: the field waits for the person's, with an example.
    await expect.poll(() => serviceUrl.inputValue()).toBe('');
    expect(await serviceUrl.getAttribute('placeholder')).toBe('https://pilot.example.com');
    await serviceUrl.fill(service.baseUrl);
    await popup.getByLabel('API key').fill(key);
    await saveScreenshot(popup, 'setup');
    await popup.getByRole('button', { name: 'Connect' }).click();

    const connected = popup.getByRole('status').filter({ hasText: 'Connected to' });
    await shownUnlessRefused(popup, connected);
    expect(await connected.textContent()).toBe(`Connected to ${ACCOUNT} on the enterprise plan.`);
    await popup.getByText(/^No profiles yet: /).waitFor();
  });

  it('saves a proxy from a pasted URL', async () => {
    await goTo(popup, 'Proxies');
    await popup.getByRole('button', { name: 'New proxy' }).click();
    await popup
      .getByLabel('Paste a proxy URL')
      .fill(`http://${PROXY.user}:${PROXY.password}@127.0.0.1:${proxy.port}`);
    expect(await popup.getByLabel('Host').inputValue()).toBe('127.0.0.1');
    expect(await popup.getByLabel('Port').inputValue()).toBe(String(proxy.port));
    expect(await popup.getByLabel('User name').inputValue()).toBe(PROXY.user);
    await popup.getByLabel('Name', { exact: true }).fill(PROXY.name);
    await popup.getByRole('button', { name: 'Save' }).click();

    await shownUnlessRefused(popup, rowOf(popup, PROXY.name));
    await rowOf(popup, PROXY.name).getByText(`http://127.0.0.1:${proxy.port} · password set`).waitFor();
    const { data } = await api.get<{ data: ProxyConfig[] }>('/v1/proxies');
    expect(data).toMatchObject([
      { name: PROXY.name, scheme: 'http', host: '127.0.0.1', port: proxy.port, username: PROXY.user },
    ]);
    expect(data[0]?.has_password).toBe(true);
  });

  it('creates a profile that uses the proxy', async () => {
    await goTo(popup, 'Profiles');
    await popup.getByRole('button', { name: 'New profile' }).click();
    await popup.getByLabel('Profile name').fill(PROFILE);
    await popup.getByLabel('Proxy', { exact: true }).selectOption({ label: PROXY.name });
    await popup.getByRole('button', { name: 'Save' }).click();

    const row = rowOf(popup, PROFILE);
    await shownUnlessRefused(popup, row);
    await row.getByText('Idle').waitFor();
    await row.getByText(PROXY.name).waitFor();
    const { data: proxies } = await api.get<{ data: ProxyConfig[] }>('/v1/proxies');
    const { data } = await api.get<{ data: Profile[] }>('/v1/profiles');
    expect(data).toMatchObject([{ name: PROFILE, proxy_id: proxies[0]?.id, status: 'idle' }]);
  });

  it('starts a session: the service runs a browser whose traffic goes through the proxy', async () => {
    await popup.getByRole('button', { name: `Start ${PROFILE}` }).click();
    await shownUnlessRefused(popup, popup.getByRole('button', { name: `Stop ${PROFILE}` }));
    await rowOf(popup, PROFILE).getByText('Running').waitFor();

    const { data: running } = await api.get<{ data: Session[] }>('/v1/sessions?status=running');
    expect(running).toHaveLength(1);
    await goTo(popup, 'Sessions');
    await popup.getByRole('button', { name: `Copy CDP URL of ${PROFILE}` }).waitFor();
    // Each answer carries a freshly signed token: the popup shows one for this session, and it works.
    const sessionEndpoint = `${service.baseUrl.replace('http', 'ws')}/v1/sessions/${running[0]?.id}/cdp/`;
    // Shown in full in its own field behind its summary, besides being copied.
    await popup.getByText('CDP URL', { exact: true }).click();
    const cdpUrl = await popup.getByRole('textbox', { name: `CDP URL of ${PROFILE}` }).inputValue();
    expect(cdpUrl.startsWith(sessionEndpoint)).toBe(true);

    const remote = await chromium.connectOverCDP(cdpUrl);
    try {
      const page = await (remote.contexts()[0] ?? (await remote.newContext())).newPage();
      await page.goto(`${site.origin}/?via=session`);
      expect(await page.title()).toBe(SITE_TITLE);
      await page.close();
    } finally {
      await remote.close();
    }
    expect(proxy.seen).toContainEqual({ url: `${site.origin}/?via=session`, authorized: true });
    await eventually('the badge to count one session', async () =>
      (await badge(extension.currentWorker())).text === '1' ? true : undefined,
    );
  });

  it('runs a script: each step, the output and the screenshot show; the worker announces it', async () => {
    const worker = extension.currentWorker();
    await recordNotifications(worker);
    await goTo(popup, 'Automation');
    // Nothing is picked by itself.
    expect(await popup.getByRole('checkbox', { name: PROFILE }).isChecked()).toBe(false);
    await pick(popup, PROFILE);
    const script = {
      steps: [
        { action: 'goto', url: `${site.origin}/?via=script` },
        { action: 'extract', selector: 'title', name: 'title' },
        { action: 'screenshot', name: 'page' },
      ],
    };
    const run = await runToSuccess(popup, RUN, script);
    const steps = run.getByRole('list').first().getByRole('listitem');
    expect(await steps.allTextContents()).toEqual([
      'goto succeeded',
      'extract succeeded',
      'screenshot succeeded',
    ]);
    const outputs = run.getByRole('definition');
    // In the order of the steps that wrote them.
    expect(await run.getByRole('term').allTextContents()).toEqual(['title', 'page']);
    await run.getByRole('button', { name: 'Full size' }).click();
    await run.locator('img.shot').waitFor();
    expect(await outputs.allTextContents()).toContain(SITE_TITLE);
    const thumbnail = run.getByRole('img', { name: 'Screenshot page' });
    await thumbnail.waitFor();
    await eventually('the thumbnail to load', () =>
      thumbnail.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0) || undefined),
    );
    // The run sits above the script: the screenshot shows it from the top.
    await popup.evaluate(() => window.scrollTo(0, 0));
    await saveScreenshot(popup, 'automation');

    const announced = await eventually('the run’s notification', async () =>
      (await takeNotifications(worker)).find(({ title }) => title === `${RUN} succeeded`),
    );
    expect(announced.id).toMatch(/^#\/runs\/run_/);
    expect(announced.message).toMatch(/^Took \d+ s\.\n/);
    expect(announced.message).toContain(`title: ${SITE_TITLE}`);
    expect(await notificationIds(worker)).toContain(announced.id);
    expect(await badge(worker)).toEqual({ text: '1', title: 'Profile Pilot\n1 session running' });

    const runId = decodeURIComponent(announced.id.slice('#/runs/'.length));
    const done = await api.get<AutomationRun>(`/v1/automation/status?run_id=${runId}`);
    expect(done).toMatchObject({ status: 'succeeded', output: { title: SITE_TITLE } });
    expect(proxy.seen).toContainEqual({ url: `${site.origin}/?via=script`, authorized: true });
  });

  it('stops the session from the Sessions view', async () => {
    const { data: before } = await api.get<{ data: Session[] }>('/v1/sessions?status=running');
    await goTo(popup, 'Sessions');
    await popup.getByRole('button', { name: `Stop ${PROFILE}` }).click();
    await shownUnlessRefused(popup, popup.getByText('No sessions are running: start one from Profiles.'));

    const { data } = await api.get<{ data: Session[] }>('/v1/sessions');
    expect(data.find(({ id }) => id === before[0]?.id)).toMatchObject({
      status: 'stopped',
      stop_reason: 'user',
    });
    await expect(chromium.connectOverCDP(before[0]?.cdp_url ?? '', { timeout: 10_000 })).rejects.toThrow(
      /404/,
    );
    await eventually('the badge to clear', async () =>
      (await badge(extension.currentWorker())).text === '' ? true : undefined,
    );
  });

  it('deletes the profile once the person confirms', async () => {
    const { data } = await api.get<{ data: Profile[] }>('/v1/profiles');
    await goTo(popup, 'Profiles');
    await rowAction(popup, PROFILE, 'Delete');
    const question = popup.getByRole('group', {
      name: `Delete ${PROFILE}? Its cookies and browser data are removed too.`,
    });
    await question.getByRole('button', { name: 'Delete', exact: true }).click();
    await shownUnlessRefused(popup, popup.getByText(/^No profiles yet: /));
    expect((await api.send('GET', `/v1/profiles/${data[0]?.id}`)).status).toBe(404);
  });

  it('edits the proxy and keeps its password', async () => {
    await goTo(popup, 'Proxies');
    await popup.getByRole('button', { name: `Edit ${PROXY.name}` }).click();
    await popup.getByRole('heading', { name: `Edit ${PROXY.name}` }).waitFor();
    await popup.getByLabel('Name', { exact: true }).fill(EDITED.name);
    await popup.getByLabel('Port').fill(String(EDITED.port));
    await popup.getByRole('button', { name: 'Save' }).click();

    const row = rowOf(popup, EDITED.name);
    await shownUnlessRefused(popup, row);
    await row.getByText(`http://127.0.0.1:${EDITED.port} · password set`).waitFor();
    const { data } = await api.get<{ data: ProxyConfig[] }>('/v1/proxies');
    expect(data).toMatchObject([{ name: EDITED.name, port: EDITED.port, username: PROXY.user }]);
    expect(data[0]?.has_password).toBe(true);
  });
});
