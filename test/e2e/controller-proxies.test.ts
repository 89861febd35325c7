/**
 * The popup's Proxies view against the real service in real Chromium: no secret in a draft when the popup
 * closes mid-form, a proxy deleted (and a sentence while a profile uses it), a proxy checked, a pasted list
 * with a line report, and a profile's time zone matched to its proxy.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ProxyConfig } from '../../lib/api/schemas/proxies';
import { startAuthenticatingProxy } from '../support/browser-fixtures';
import { controllerForFile, createProfile } from './support/controller';
import { allStorage, focusedLabel, goTo, rowAction, rowOf, shownUnlessRefused } from './support/popup';
import { serveCheckAddress } from './support/site';

const controller = controllerForFile({
  env: async (cleanup) => ({
    PROXY_CHECK_URL: await serveCheckAddress(cleanup, () => ({ ip: '203.0.113.9', timezone: 'Asia/Tokyo' })),
  }),
});

describe('secrets never in drafts', () => {
  it('keeps no proxy password when the popup closes mid-form, and asks for it again', async () => {
    const { api, extension } = controller;
    const secret = 'S3cret-pass';
    let popup = await extension.openPopup();
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
    // By its name: the file's other cases may have saved theirs.
    expect(data.filter(({ name }) => name === 'Office')).toMatchObject([
      { name: 'Office', username: 'alice', has_password: true },
    ]);
    expect(await allStorage(popup)).not.toContain(secret);
  });
});

describe('deleting', () => {
  it('deletes a proxy from the popup, and says so in a sentence while a profile uses it', async () => {
    const { api, extension } = controller;
    const saved = await api.send('POST', '/v1/proxies', {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'In use', scheme: 'http', host: '10.9.9.9', port: 3128 }),
    });
    const proxy = (await saved.json()) as ProxyConfig;
    const { id: userId } = await createProfile(api, { name: 'Proxy user', proxy_id: proxy.id });
    const popup = await extension.openPopup('#/proxies');
    // Escape closes the question and gives the focus back to the button that asked it.
    await popup.getByRole('button', { name: 'Delete In use' }).click();
    await popup.getByRole('group', { name: 'Delete the proxy In use?' }).waitFor();
    await expect.poll(() => focusedLabel(popup)).toBe('Cancel');
    await popup.keyboard.press('Escape');
    await expect.poll(() => focusedLabel(popup)).toBe('Delete In use');
    await popup.getByRole('button', { name: 'Delete In use' }).click();
    await popup
      .getByRole('group', { name: 'Delete the proxy In use?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await popup.getByRole('alert').filter({ hasText: '1 profile uses this proxy' }).waitFor();
    await expect.poll(() => focusedLabel(popup)).toBe('Delete In use');

    await api.send('DELETE', `/v1/profiles/${userId}`);
    await popup.getByRole('button', { name: 'Delete In use' }).click();
    await popup
      .getByRole('group', { name: 'Delete the proxy In use?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await rowOf(popup, 'In use').waitFor({ state: 'detached' });
    // With its row gone, the focus is on the view's heading, not lost to the page.
    await expect.poll(() => popup.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect((await api.send('GET', `/v1/proxies/${proxy.id}`)).status).toBe(404);
  });
});

describe('proxy tools', () => {
  it('checks a proxy through a local proxy, pastes a list with a line report, and matches a profile to its proxy', async () => {
    const { api, extension, cleanup } = controller;
    const proxy = await startAuthenticatingProxy('pat', 'pw-9');
    cleanup.add(proxy, (it) => it.close());
    let popup: Page = await extension.openPopup('#/proxies');
    await popup.getByText('Paste a list').click();
    await popup
      .getByLabel(
        'Proxies, one a line: host:port, host:port:user:pass, user:pass@host:port or scheme://user:pass@host:port',
      )
      .fill(`127.0.0.1:${proxy.port}:pat:pw-9\nnot a proxy\nsocks5://10.1.1.1:1080\nsocks5://10.1.1.1:1080`);
    await popup.getByRole('button', { name: 'Add proxies' }).click();
    // Line 4 says again what line 3 saved: it is that proxy, already saved, not a second one.
    const report = popup.getByRole('status').filter({ hasText: 'added' });
    await shownUnlessRefused(popup, report);
    expect(await report.textContent()).toBe(
      '2 added, 1 already saved, 1 refused: lines 2.\n' +
        'Line 2: not added: Not a proxy: must be host:port, host:port:user:pass, user:pass@host:port or scheme://[user:pass@]host:port.\n' +
        'The lines not added are left in the box, to correct.',
    );
    expect(
      await popup
        .getByLabel(
          'Proxies, one a line: host:port, host:port:user:pass, user:pass@host:port or scheme://user:pass@host:port',
        )
        .inputValue(),
    ).toBe('not a proxy');
    const { data } = await api.get<{ data: ProxyConfig[] }>('/v1/proxies?limit=100');
    expect(data.find((saved) => saved.name === `pat@127.0.0.1:${proxy.port}`)).toMatchObject({
      has_password: true,
    });
    // The pasted password was kept nowhere in the extension.
    expect(await allStorage(popup)).not.toContain('pw-9');

    const name = `pat@127.0.0.1:${proxy.port}`;
    await popup.getByRole('button', { name: `Check ${name}` }).click();
    await rowOf(popup, name).getByText('Works: exit IP 203.0.113.9 (Asia/Tokyo)', { exact: false }).waitFor();
    expect(proxy.seen.at(-1)).toMatchObject({ authorized: true });
    await popup.getByRole('button', { name: 'Check 10.1.1.1:1080' }).click();
    await rowOf(popup, '10.1.1.1:1080')
      .getByText(/^Does not work: /)
      .waitFor();

    await createProfile(api, { name: 'Tokyo shopper' });
    popup = await extension.openPopup('#/profiles');
    await popup.getByLabel('Search profiles').fill('Tokyo shopper');
    await rowAction(popup, 'Tokyo shopper', 'Edit');
    await popup.getByLabel('Proxy', { exact: true }).selectOption({ label: name });
    // A saved profile's Identity section is open.
    await popup.getByRole('button', { name: "Match the proxy's time zone" }).click();
    await expect.poll(() => popup.getByLabel('Time zone').inputValue()).toBe('Asia/Tokyo');
  });
});
