/**
 * A person gets an API key from the dashboard in real Chromium, from the extension's "Get an API key" link:
 * signs up, creates two keys, uses one against /v1/profiles, revokes it (401 after), uses the other, sees the
 * usage count move, watches a running session from the Sessions page, invites a person who opens the link, chooses
 * a password and is listed as a member, signs out and in, changes the password and deletes the account; bad input
 * is answered on the form, and no page breaks its Content-Security-Policy. Saves the README's screenshots of the
 * dashboard's Keys, Members, Audit and Usage pages.
 */
import path from 'node:path';
import { chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createClient } from '../../lib/api/client';
import { CHROMIUM } from '../support/browser-fixtures';
import { type ServiceHandle, startService } from '../support/harness';
import { cleanupStack } from './support/cleanup';
import { type Extension, openExtension } from './support/extension';

const EMAIL = 'ada@example.com';
const PASSWORD = 'first password here';
const NEW_PASSWORD = 'second password here';

const cleanup = cleanupStack();
let service: ServiceHandle;
let extension: Extension;
let page: Page;
const cspViolations: string[] = [];
const keys: Record<'first' | 'second', string> = { first: '', second: '' };

beforeAll(async () => {
  [service, extension] = await Promise.all([
    startService().then((started) => cleanup.add(started, (it) => it.close())),
    openExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
});
afterAll(() => cleanup.run());

const profilesWith = (key: string) =>
  fetch(`${service.baseUrl}/v1/profiles`, { headers: { Authorization: `Bearer ${key}` } }).then(
    (response) => response.status,
  );
const field = (label: string) => page.getByLabel(label, { exact: true });
const button = (name: string) => page.getByRole('button', { name, exact: true });
const keyRow = (name: string): Locator => page.getByRole('row').filter({ hasText: name });

/**
 * Saves pages of the dashboard as <name>.png at a desktop window's size, each once `ready` is on it: the
 * extension's window is small, so another Chromium shows them, signed in with the same cookie.
 */
async function saveDesktopScreenshots(pages: { name: string; hash: string; ready: string }[]): Promise<void> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1100, height: 640 } });
    await context.addCookies(await extension.context.cookies(`${service.baseUrl}/dashboard`));
    const desktop = await context.newPage();
    for (const { name, hash, ready } of pages) {
      await desktop.goto(`${service.baseUrl}/dashboard${hash}`);
      await desktop.getByText(ready).first().waitFor();
      await desktop.screenshot({
        path: path.join(inject('screenshotsDir'), `${name}.png`),
        animations: 'disabled',
      });
    }
  } finally {
    await browser.close();
  }
}

async function createKey(name: string, days?: number): Promise<string> {
  await field('Name').fill(name);
  if (days !== undefined) await field('Expires after (days)').fill(String(days));
  await button('Create key').click();
  await page.getByText('Copy it now: it will not be shown again.').waitFor();
  const key = (await page.getByTestId('secret').textContent())?.trim() ?? '';
  await button('Done').click();
  await keyRow(name).waitFor();
  return key;
}

/** Opens Usage (or refreshes it) and waits for it to say `used` requests. */
async function seeUsage(used: number): Promise<void> {
  await page.getByRole('link', { name: 'Usage' }).click();
  await button('Refresh').click();
  await page
    .getByTestId('used')
    .filter({ hasText: `Used in the last hour: ${used} of 100.` })
    .waitFor();
}

describe('the dashboard', () => {
  it('opens from the extension’s set-up screen', async () => {
    const popup = await extension.openPopup();
    await popup.getByLabel('Service URL').fill(service.baseUrl);
    const link = popup.getByRole('link', { name: 'Get an API key' });
    expect(await link.getAttribute('href')).toBe(`${service.baseUrl}/dashboard`);
    const [opened] = await Promise.all([extension.context.waitForEvent('page'), link.click()]);
    page = opened;
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.waitForURL(`${service.baseUrl}/dashboard`);
    await page.getByRole('heading', { name: 'Sign up' }).waitFor();
    await popup.close();
  });

  it('answers bad input on the form, keeping what was typed but the password', async () => {
    await field('Email').fill('ada.example.com');
    await field('Password').fill('short');
    await button('Sign up').click();
    await page.getByText('Enter an email address such as name@example.com.').waitFor();
    await page.getByText('Use at least 10 characters for the password.').waitFor();
    expect(await field('Email').inputValue()).toBe('ada.example.com');
  });

  it('signs up on the Free plan and is signed in', async () => {
    await field('Email').fill(EMAIL);
    await field('Password').fill(PASSWORD);
    await button('Sign up').click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByText(`${EMAIL} · owner · free plan`).waitFor();
    await page.getByText('No keys yet: create one above.').waitFor();
  });

  it('creates two keys, each shown once', async () => {
    keys.first = await createKey('Laptop');
    keys.second = await createKey('CI server', 30);
    expect(keys.first).toMatch(/^pp_live_[0-9A-Za-z]{32}$/);
    expect(keys.second).toMatch(/^pp_live_[0-9A-Za-z]{32}$/);
    expect(await page.content()).not.toContain(keys.first);
    expect(await keyRow('Laptop').textContent()).toContain(keys.first.slice(0, 12));
    expect(await keyRow('CI server').textContent()).not.toMatch(/Expires.*Never/);
  });

  it('fits a 390-px phone: the header covers nothing and shows the account whole, the fields align, the keys do not scroll sideways; times read relative', async () => {
    const desktop = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    const fit = await page.evaluate(() => {
      scrollTo(0, 0);
      const header = document.querySelector('.dashboard-header')?.getBoundingClientRect();
      const heading = document.querySelector('main h1, main h2')?.getBoundingClientRect();
      const account = document.querySelector('.dashboard-header .grow') as HTMLElement;
      return {
        headingBelowHeader: Boolean(header && heading && heading.top >= header.bottom),
        sideways: document.documentElement.scrollWidth > innerWidth,
        accountLines: Math.round(
          account.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(account).lineHeight),
        ),
        accountWhole: account.scrollWidth <= account.clientWidth,
        // The form's fields start at one left edge, one under the other.
        fieldLefts: new Set(
          [...document.querySelectorAll('form .field')].map((each) => each.getBoundingClientRect().left),
        ).size,
      };
    });
    expect(fit).toEqual({
      headingBelowHeader: true,
      sideways: false,
      accountLines: 1,
      accountWhole: true,
      fieldLefts: 1,
    });
    await page.screenshot({ path: path.join(inject('screenshotsDir'), 'dashboard-390.png') });
    if (desktop) await page.setViewportSize(desktop);
    const created = keyRow('Laptop').locator('time').first();
    expect(await created.textContent()).toMatch(/now|ago/);
    expect(await created.getAttribute('title')).toMatch(/\d{4}/);
  });

  it('uses one key, revokes it after asking, and the service refuses it at once', async () => {
    expect(await profilesWith(keys.first)).toBe(200);
    await keyRow('Laptop').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Revoke “Laptop”? Programs using it are refused at once.').waitFor();
    await button('Revoke key').click();
    await keyRow('Laptop')
      .getByText(/^Revoked/)
      .waitFor();
    expect(await profilesWith(keys.first)).toBe(401);
  });

  it('uses the other key and sees the usage count move', async () => {
    expect(await profilesWith(keys.second)).toBe(200);
    // The revoked key's refused request counts for no one.
    await seeUsage(2);
    expect(await page.locator('.chart rect').count()).toBe(60);
    expect(await profilesWith(keys.second)).toBe(200);
    await seeUsage(3);
    await page.getByText('At the limit, the service refuses requests with 429').waitFor();
    await page.getByRole('link', { name: 'Keys' }).click();
    await keyRow('CI server').waitFor();
  });

  it('lists a running session on the Sessions page, and Watch opens its live view', async () => {
    const api = createClient({ baseUrl: service.baseUrl, apiKey: keys.second, fetch });
    const profile = await api.createProfile({ name: 'Checkout' });
    const session = await api.startSession({ profile_id: profile.id, headless: true });
    await page.getByRole('link', { name: 'Sessions' }).click();
    const opened = extension.context.waitForEvent('page');
    await page.getByRole('link', { name: 'Watch Checkout' }).click();
    const view = await opened;
    await view.waitForFunction(() => Number(document.body.dataset.frames ?? 0) > 0);
    expect(view.url()).toContain(`/live/${session.id}/c.`);
    await view.close();
    await api.stopSession({ session_id: session.id });
    await button('Refresh').click();
    await page.getByText('No session is running.').waitFor();
    await page.getByRole('link', { name: 'Keys' }).click();
  });

  it('invites a person, who opens the link, chooses a password and is listed as a member', async () => {
    await page.getByRole('link', { name: 'Members' }).click();
    await field('Email').fill('grace@example.com');
    await page.getByLabel('Role').selectOption('editor');
    await field('Scope').fill('shop, team-a');
    await button('Invite').click();
    await page.getByText('Send this link to them: it works once, for 7 days.').waitFor();
    const link = (await page.getByTestId('secret').textContent())?.trim() ?? '';
    expect(link).toMatch(new RegExp(`^${service.baseUrl}/dashboard/#/join/[\\w-]{43}$`));
    await button('Done').click();
    await saveDesktopScreenshots([
      { name: 'dashboard', hash: '#/keys', ready: 'CI server' },
      { name: 'dashboard-audit', hash: '#/audit', ready: 'member.invite' },
      { name: 'dashboard-usage', hash: '#/usage', ready: 'Requests in the last hour' },
    ]);

    await button('Sign out').click();
    await page.getByRole('heading', { name: 'Sign up' }).waitFor();
    // Opened as a new page would be (a link followed from an email), not as a hash change of this one.
    await page.goto('about:blank');
    await page.goto(link);
    await page.getByText('You are invited to ada@example.com as editor.').waitFor();
    expect(page.url()).not.toContain('/join/');
    await field('Choose a password').fill(PASSWORD);
    await button('Join').click();
    await page.getByText('grace@example.com · editor · free plan').waitFor();
    await page.getByRole('link', { name: 'Members' }).click();
    const grace = page.getByRole('row').filter({ hasText: 'grace@example.com' });
    await expect(grace.textContent()).resolves.toMatch(/editor.*Tags: shop, team-a/);
    await page.getByRole('row').filter({ hasText: EMAIL }).waitFor();

    await page.goto('about:blank');
    await page.goto(link);
    await page.getByText('This invitation link was used already').waitFor();
    await button('Sign in instead').click();
    await button('Sign out').click();
    await button('Sign in instead').click();
    await field('Email').fill(EMAIL);
    await field('Password').fill(PASSWORD);
    await button('Sign in').click();
    await page.getByText(`${EMAIL} · owner · free plan`).waitFor();
    await saveDesktopScreenshots([
      { name: 'dashboard-members', hash: '#/members', ready: 'grace@example.com' },
    ]);
  });

  it('draws in the dark theme too', async () => {
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const light = await background();
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).not.toBe(light);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('signs out, refuses an email already signed up and a wrong password, and signs in', async () => {
    await button('Sign out').click();
    await page.getByRole('heading', { name: 'Sign up' }).waitFor();
    await field('Email').fill(EMAIL.toUpperCase());
    await field('Password').fill('another password');
    await button('Sign up').click();
    await page.getByText('This email already has an account: sign in instead.').waitFor();
    expect(await field('Email').inputValue()).toBe(EMAIL.toUpperCase());
    expect(await field('Password').inputValue()).toBe('');

    await button('Sign in instead').click();
    await field('Email').fill(EMAIL);
    await field('Password').fill('not my password');
    await button('Sign in').click();
    await page.getByText('The email or the password is not right.').waitFor();
    expect(await field('Email').inputValue()).toBe(EMAIL);
    expect(await field('Password').inputValue()).toBe('');
    await field('Password').fill(PASSWORD);
    await button('Sign in').click();
    await keyRow('CI server').waitFor();
  });

  it('changes the password', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await field('Current password').fill('not my password');
    await field('New password').fill(NEW_PASSWORD);
    await button('Change password').click();
    await page.getByText('This is not your current password.').waitFor();
    await field('Current password').fill(PASSWORD);
    await field('New password').fill(NEW_PASSWORD);
    await button('Change password').click();
    await page.getByText('Your password was changed').waitFor();

    await button('Sign out').click();
    await button('Sign in instead').click();
    await field('Email').fill(EMAIL);
    await field('Password').fill(NEW_PASSWORD);
    await button('Sign in').click();
    // Back on the page it was on.
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
  });

  it('deletes the account after asking, and its keys stop working', async () => {
    await page.getByRole('link', { name: 'Account' }).click();
    await button('Delete account').click();
    await page.getByText('This cannot be undone.').waitFor();
    await field('Password').fill(NEW_PASSWORD);
    await button('Delete my account').click();
    await page.getByText('Your account and everything in it were deleted.').waitFor();
    expect(await profilesWith(keys.second)).toBe(401);

    await button('Sign in instead').click();
    await field('Email').fill(EMAIL);
    await field('Password').fill(NEW_PASSWORD);
    await button('Sign in').click();
    await page.getByText('The email or the password is not right.').waitFor();
  });

  it('never broke its Content-Security-Policy', () => {
    expect(cspViolations).toEqual([]);
  });
});
