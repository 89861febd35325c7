/**
 * What the popup tells a person when things go wrong, each as a sentence: a key the service refuses, a
 * service that is not running (at set-up, and after it went down), and a Free key at the end of its quota.
 */
import { createServer } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectExtension } from '../../scripts/extension-browser';
import { JSON_HEADERS, type ServiceHandle, startService } from '../support/harness';
import { cleanupStack } from './support/cleanup';
import { type Extension, openExtension } from './support/extension';
import { goTo } from './support/popup';
import { saveScreenshot } from './support/screenshots';
import { serviceReader } from './support/service-api';

const cleanup = cleanupStack();
let service: ServiceHandle;
let extension: Extension;

beforeAll(async () => {
  [service, extension] = await Promise.all([
    // Its pages and proxies are served on loopback, which sessions reach only when the operator allows it.
    startService({ env: { EGRESS_ALLOW: 'loopback' } }).then((started) =>
      cleanup.add(started, (it) => it.close()),
    ),
    openExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
});

afterAll(() => cleanup.run());

/** A port on which nothing listens (it did a moment ago). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A fresh popup on the set-up view, the address and key typed and Connect pressed. */
async function connect(serviceUrl: string, key: string): Promise<Page> {
  const popup = await extension.openPopup();
  await popup.getByLabel('Service URL').fill(serviceUrl);
  await popup.getByLabel('API key').fill(key);
  await popup.getByRole('button', { name: 'Connect' }).click();
  return popup;
}

/** The sentence of the popup's alert, once one shows (without its Retry button's name). */
async function alertOf(popup: Page): Promise<string> {
  const alert = popup.getByRole('alert');
  await alert.waitFor();
  return ((await alert.textContent()) ?? '').replace(/ Retry$/, '').trim();
}

/** The popup's quota line. */
function quotaLine(popup: Page) {
  // The footer's: the sentence that says what the popup connected to names the quota too.
  return popup.getByRole('contentinfo').getByRole('status');
}

describe('the popup explains what went wrong', () => {
  it('a key the service refuses', async () => {
    const popup = await connect(service.baseUrl, 'pp_live_00000000000000000000000000000000');
    expect(await alertOf(popup)).toBe(
      'This API key is not valid: check it, or create a new one in the dashboard.',
    );
    expect(await popup.getByRole('button', { name: 'Connect' }).isEnabled()).toBe(true);
    await saveScreenshot(popup, 'error');
    await popup.close();
  });

  it('a service that is not running', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const popup = await connect(url, 'pp_live_00000000000000000000000000000000');
    expect(await alertOf(popup)).toBe(`The service at ${url} cannot be reached. Is it running?`);
    await popup.close();
  });

  it('a Free key with its hourly requests used up', async () => {
    const key = await service.createKey('free', 'Almost out');
    const api = serviceReader(service.baseUrl, key);
    // Spends the hour's quota, as other devices or scripts of the account would, until two requests are left.
    for (;;) {
      const answer = await api.send('GET', '/v1/account');
      expect(answer.status).toBe(200);
      if (answer.headers.get('X-RateLimit-Remaining') === '2') break;
    }

    const popup = await connect(service.baseUrl, key);
    const connected = popup.getByRole('status').filter({ hasText: 'Connected to' });
    await connected.waitFor();
    // The sentence names the account and plan; the requests left are the foot's one figure.
    expect(await connected.textContent()).toBe('Connected to Almost out on the free plan.');
    // The profiles view spends the last request as it opens; the proxies list then meets the limit.
    await quotaLine(popup).filter({ hasText: '0 of 100 requests left this hour' }).waitFor();
    await goTo(popup, 'Proxies');
    expect(await alertOf(popup)).toMatch(
      /^The hourly request limit is used up\. Try again in \d+ minutes?\.$/,
    );
    expect(await popup.getByRole('alert').getByRole('button', { name: 'Retry' }).isDisabled()).toBe(true);
    expect(await quotaLine(popup).textContent()).toBe('0 of 100 requests left this hour');
    await popup.close();
  });

  it('a service that stopped after set-up: its last lists shown, said to be stale, their actions off', async () => {
    const key = await service.createKey('premium', 'Offline');
    const api = serviceReader(service.baseUrl, key);
    for (const name of ['Kept one', 'Kept two'])
      await api.send('POST', '/v1/profiles', { headers: JSON_HEADERS, body: JSON.stringify({ name }) });
    // Connected with this key, as npm start connects its browser; the popup reads the list and keeps it.
    await connectExtension(extension.currentWorker(), service.baseUrl, key);
    const seen = await extension.openPopup('#/profiles');
    await seen.getByText('Kept two').waitFor();
    await seen.close();

    await service.stop();
    const popup = await extension.openPopup('#/proxies');
    // Said once, in one banner that says what to do, with no quota claimed under it.
    expect(await alertOf(popup)).toBe(
      `The service at ${service.baseUrl} cannot be reached. Is it running? Start it (npm start in the project folder), then try again. Nothing shown here is current until it answers.Try again`,
    );
    await goTo(popup, 'Profiles');
    expect(await popup.getByRole('alert').count()).toBe(1);
    expect(await quotaLine(popup).count()).toBe(0);
    // The list kept from before is there, marked stale with when it was fetched, and nothing acts on it.
    await popup.getByText('Kept one', { exact: true }).waitFor();
    expect(
      await popup.getByText(/^Fetched .*: the service cannot be reached, so this may have changed/).count(),
    ).toBe(1);
    expect(await popup.getByRole('button', { name: 'Start Kept one' }).isDisabled()).toBe(true);
    expect(await popup.getByRole('button', { name: 'New profile' }).isDisabled()).toBe(true);
    expect(await popup.getByText('Loading more…').count()).toBe(0);
    expect(await popup.getByRole('button', { name: 'Try again' }).isEnabled()).toBe(true);
    await popup.close();
  });
});
