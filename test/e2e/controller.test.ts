/**
 * The popup as a controller for every profile, against the real service in real Chromium: no secret in a draft
 * when the popup closes mid-form, a thousand profiles searched (by name and tag) and paged by the service.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { browser } from 'wxt/browser';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import { type ServiceHandle, startService } from '../server/harness';
import { cleanupStack } from './support/cleanup';
import { type Extension, openExtension } from './support/extension';
import { goTo, rowOf, shownUnlessRefused } from './support/popup';
import { serviceReader } from './support/service-api';

const cleanup = cleanupStack();
let service: ServiceHandle;
let extension: Extension;
let api: ReturnType<typeof serviceReader>;
let popup: Page;

beforeAll(async () => {
  [service, extension] = await Promise.all([
    startService({ env: { EGRESS_ALLOW: 'loopback' } }).then((started) =>
      cleanup.add(started, (it) => it.close()),
    ),
    openExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
  const key = await service.createKey('enterprise', 'E2E controller');
  api = serviceReader(service.baseUrl, key);
  popup = await extension.openPopup();
  await popup.getByLabel('Service URL').fill(service.baseUrl);
  await popup.getByLabel('API key').fill(key);
  await popup.getByRole('button', { name: 'Connect' }).click();
  await shownUnlessRefused(popup, popup.getByRole('button', { name: 'Continue' }));
  await popup.getByRole('button', { name: 'Continue' }).click();
});

afterAll(() => cleanup.run());

/** Everything the extension keeps, in every storage area, as one text. */
function allStorage(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const { storage } = (globalThis as unknown as { chrome: typeof browser }).chrome;
    const areas = [storage.local, storage.session];
    return JSON.stringify(await Promise.all(areas.map((area) => area.get(null))));
  });
}

describe('secrets never in drafts', () => {
  it('keeps no proxy password when the popup closes mid-form, and asks for it again', async () => {
    const secret = 'S3cret-pass';
    await goTo(popup, 'Proxies');
    await popup.getByRole('button', { name: 'New proxy' }).click();
    await popup.getByLabel('Paste a proxy URL').fill(`http://alice:${secret}@proxy.example:8080`);
    expect(await popup.getByLabel('Paste a proxy URL').inputValue()).toBe('http://alice@proxy.example:8080');
    expect(await popup.getByLabel('Password').inputValue()).toBe(secret);
    await expect.poll(() => allStorage(popup)).toContain('proxy.example');
    expect(await allStorage(popup)).not.toContain(secret);
    await popup.close();

    popup = await extension.openPopup('#/proxies');
    await popup.getByRole('button', { name: 'New proxy' }).click();
    await expect.poll(() => popup.getByLabel('User name').inputValue()).toBe('alice');
    await popup.getByLabel('Name', { exact: true }).fill('Office');
    await popup.getByRole('button', { name: 'Save' }).click();
    await popup.getByText('The password is never kept when the popup closes: type it again.').waitFor();
    await popup.getByLabel('Password').fill(secret);
    await popup.getByRole('button', { name: 'Save' }).click();
    await shownUnlessRefused(popup, rowOf(popup, 'Office'));
    await rowOf(popup, 'Office').getByText('password set', { exact: false }).waitFor();
    const { data } = await api.get<{ data: ProxyConfig[] }>('/v1/proxies');
    expect(data).toMatchObject([{ name: 'Office', username: 'alice', has_password: true }]);
    expect(await allStorage(popup)).not.toContain(secret);
  });
});
