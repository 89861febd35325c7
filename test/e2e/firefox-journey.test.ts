/**
 * The Firefox build in a real Firefox (Debian's firefox-esr, over WebDriver BiDi) against the real service: its
 * shortcuts, set-up, a profile created and listed, a session started and stopped, a script run to its end,
 * with the badge and the notification the background shows.
 */
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { Session } from '../../lib/api/schemas/sessions';
import { type ServiceHandle, startService } from '../support/harness';
import { cleanupStack } from './support/cleanup';
import { type FirefoxExtension, openFirefoxExtension } from './support/firefox';
import {
  badge,
  byLabel,
  control,
  recordNotifications,
  shortcuts,
  takeNotifications,
  textUnlessRefused,
} from './support/firefox-popup';
import { serviceReader } from './support/service-api';
import { SITE_TITLE, startSite } from './support/site';
import { eventually } from './support/wait';

const ACCOUNT = 'Firefox journey';
const PROFILE = 'Fox shop';
const RUN = 'Read the shop in Firefox';

const cleanup = cleanupStack();
let service: ServiceHandle;
let site: Awaited<ReturnType<typeof startSite>>;
let firefox: FirefoxExtension;
let popup: Page;
let api: ReturnType<typeof serviceReader>;
let key: string;

beforeAll(async () => {
  [service, site, firefox] = await Promise.all([
    // The script reads a page served on loopback, which session browsers may reach only when allowed.
    startService({ env: { EGRESS_ALLOW: 'loopback' } }).then((started) =>
      cleanup.add(started, (it) => it.close()),
    ),
    startSite().then((started) => cleanup.add(started, (it) => it.close())),
    openFirefoxExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
  key = await service.createKey('enterprise', ACCOUNT);
  api = serviceReader(service.baseUrl, key);
  popup = await firefox.openPopup();
});

afterAll(() => cleanup.run());

describe('the extension in Firefox', () => {
  it('registers the manifest’s shortcuts with the keys it suggests', async () => {
    const { registered, suggested } = await shortcuts(popup);
    expect(registered).toEqual([
      '_execute_action: Alt+Shift+O',
      'run-last-script: Alt+Shift+L',
      'start-last-profile: Alt+Shift+S',
      'stop-all-sessions: Alt+Shift+Q',
    ]);
    expect(registered).toEqual(suggested);
  });

  it('sets up with the service URL and a key', async () => {
    const serviceUrl = byLabel(popup, 'Service URL');
    // No service answers at the local address here: the field waits for the person's.
    expect(await (await serviceUrl.waitHandle()).evaluate((input) => (input as HTMLInputElement).value)).toBe(
      '',
    );
    await serviceUrl.fill(service.baseUrl);
    await byLabel(popup, 'API key').fill(key);
    await control(popup, 'button', 'Connect').click();
    await textUnlessRefused(popup, `Connected to ${ACCOUNT} on the enterprise plan.`);
    await textUnlessRefused(popup, 'No profiles yet: ');
  });

  it('creates a profile and lists it', async () => {
    await control(popup, 'button', 'New profile').click();
    await byLabel(popup, 'Profile name').fill(PROFILE);
    await control(popup, 'button', 'Save').click();
    await textUnlessRefused(popup, PROFILE);
    await control(popup, 'button', `Start ${PROFILE}`).wait();
    const { data } = await api.get<{ data: Profile[] }>('/v1/profiles');
    expect(data).toMatchObject([{ name: PROFILE, status: 'idle' }]);
  });

  it('starts the profile’s session; the badge counts it', async () => {
    await control(popup, 'button', `Start ${PROFILE}`).click();
    await control(popup, 'button', `Stop ${PROFILE}`).wait();
    const { data } = await api.get<{ data: Session[] }>('/v1/sessions?status=running');
    expect(data).toMatchObject([{ status: 'running' }]);
    await eventually('the badge to count one session', async () =>
      (await badge(popup)).text === '1' ? true : undefined,
    );
  });

  it('runs a script, sees it finish, and the background announces it', async () => {
    await recordNotifications(popup);
    await control(popup, 'link', 'Automation').click();
    const script = {
      steps: [
        { action: 'goto', url: `${site.origin}/?via=firefox` },
        { action: 'extract', selector: 'title', name: 'title' },
      ],
    };
    await byLabel(popup, 'Script (JSON steps)').fill(JSON.stringify(script));
    await byLabel(popup, 'Script name').fill(RUN);
    // Automation picks no profile by itself: Run waits for one.
    await control(popup, 'checkbox', PROFILE).click();
    await control(popup, 'button', 'Run').click();
    await textUnlessRefused(popup, `${RUN} succeeded`);
    await textUnlessRefused(popup, SITE_TITLE);

    const announced = await eventually('the run’s notification', async () =>
      (await takeNotifications(popup)).find(({ title }) => title === `${RUN} succeeded`),
    );
    expect(announced.message).toContain(`title: ${SITE_TITLE}`);
    const runId = decodeURIComponent(announced.id.slice('#/runs/'.length));
    const done = await api.get<AutomationRun>(`/v1/automation/status?run_id=${runId}`);
    expect(done).toMatchObject({ status: 'succeeded', output: { title: SITE_TITLE } });
    expect(await badge(popup)).toEqual({ text: '1', title: 'Profile Pilot\n1 session running' });
  });

  it('stops the session; the badge clears', async () => {
    await control(popup, 'link', 'Sessions').click();
    await control(popup, 'button', `Stop ${PROFILE}`).click();
    await textUnlessRefused(popup, 'No sessions are running: start one from Profiles.');
    const { data } = await api.get<{ data: Session[] }>('/v1/sessions');
    expect(data).toMatchObject([{ status: 'stopped', stop_reason: 'user' }]);
    await eventually('the badge to clear', async () => ((await badge(popup)).text === '' ? true : undefined));
  });
});
