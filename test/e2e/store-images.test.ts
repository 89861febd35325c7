/**
 * The store images, made from the built extension in Chromium against the real service: three 1280×800
 * screenshots (set-up, profiles with a running session, a finished automation run) and the 440×280 promo
 * tile. `npm run store:images` writes them to docs/store/ (STORE_IMAGES_DIR); in `npm test` they go to a
 * temporary folder, so that the run proves they can be made without changing the repository.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/core/config';
import { makeTempDir } from '../support/browser-fixtures';
import { JSON_HEADERS, type ServiceHandle, startService } from '../support/harness';
import { cleanupStack } from './support/cleanup';
import { type Extension, openExtension } from './support/extension';
import { goTo, pick, rowOf, runToSuccess, shownUnlessRefused } from './support/popup';
import { serviceReader } from './support/service-api';
import { SITE_TITLE, startSite } from './support/site';
import {
  capturePopup,
  pngSize,
  promoTile,
  SCREENSHOT_SIZE,
  saveImage,
  storeScreenshot,
  TILE_SIZE,
} from './support/store-images';
import { eventually } from './support/wait';

const PROFILES = [
  { name: 'Ads review', proxy: 'socks5://proxy.example:1080' },
  { name: 'Shop (EU)', proxy: 'http://buyer:secret@eu.proxy.example:8080' },
  { name: 'Market research' },
];
const STARTED = 'Market research';
const RUN = 'Price check';

const cleanup = cleanupStack();
const folder = process.env.STORE_IMAGES_DIR
  ? path.resolve(PROJECT_ROOT, process.env.STORE_IMAGES_DIR)
  : cleanup.add(makeTempDir('pp-store-images'), (dir) => dir.remove()).path;
let service: ServiceHandle;
let site: Awaited<ReturnType<typeof startSite>>;
let extension: Extension;
let popup: Page;
let key: string;

beforeAll(async () => {
  mkdirSync(folder, { recursive: true });
  [service, site, extension] = await Promise.all([
    // The script reads a page served on loopback, which session browsers may reach only when allowed.
    startService({ env: { EGRESS_ALLOW: 'loopback' } }).then((started) =>
      cleanup.add(started, (it) => it.close()),
    ),
    startSite().then((started) => cleanup.add(started, (it) => it.close())),
    openExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
  key = await service.createKey('premium', 'Store listing');
  const api = serviceReader(service.baseUrl, key);
  for (const profile of PROFILES) {
    const created = await api.send('POST', '/v1/profiles', {
      body: JSON.stringify(profile),
      headers: JSON_HEADERS,
    });
    expect(created.status).toBe(201);
  }
  popup = await extension.openPopup();
});

afterAll(() => cleanup.run());

async function save(name: string, heading: string, sentence: string): Promise<void> {
  const png = await storeScreenshot(extension.context, await capturePopup(popup), heading, sentence);
  expect(pngSize(png)).toEqual(SCREENSHOT_SIZE);
  saveImage(folder, name, png);
}

describe('store images', () => {
  it('set-up: the service address and a key', async () => {
    // Shown with the address the popup fills in for the local service; the test's service listens elsewhere.
    await popup.getByLabel('API key').fill(key);
    await save(
      'screenshot-setup',
      'Connect in one step',
      'Paste the service address and API key. The key stays in this browser and goes only to that service.',
    );
    await popup.getByLabel('Service URL').fill(service.baseUrl);
    await popup.getByRole('button', { name: 'Connect' }).click();
    await shownUnlessRefused(popup, popup.getByRole('status').filter({ hasText: 'Connected to' }));
  });

  it('profiles, one of them running', async () => {
    await popup.getByRole('button', { name: `Start ${STARTED}` }).click();
    await shownUnlessRefused(popup, rowOf(popup, STARTED).getByText('Running'));
    await save(
      'screenshot-profiles',
      'Every profile, one click away',
      'Start and stop each profile’s browser session, with its own cookies, proxy and fingerprint.',
    );
  });

  it('a finished automation run with its output and screenshot', async () => {
    await goTo(popup, 'Automation');
    const script = {
      steps: [
        { action: 'goto', url: `${site.origin}/catalogue` },
        { action: 'extract', selector: 'title', name: 'title' },
        { action: 'screenshot', name: 'page' },
      ],
    };
    // The profile without a proxy: the others' proxies are names that lead nowhere.
    await pick(popup, 'Market research');
    const run = await runToSuccess(popup, RUN, script);
    await run.getByText(SITE_TITLE).waitFor();
    const thumbnail = run.getByRole('img', { name: 'Screenshot page' });
    await eventually('the thumbnail to load', () =>
      thumbnail.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0) || undefined),
    );
    await popup.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await save(
      'screenshot-automation',
      'Run scripts, see them finish',
      'Each step, its outputs and screenshots as the run goes; a notification when it ends.',
    );
  });

  it('the promo tile', async () => {
    const png = await promoTile(
      extension.context,
      'Profile Pilot',
      'Browser profiles, sessions and automation runs from your toolbar.',
    );
    expect(pngSize(png)).toEqual(TILE_SIZE);
    saveImage(folder, 'promo-tile', png);
    expect(pngSize(readFileSync(path.join(folder, 'promo-tile.png')))).toEqual(TILE_SIZE);
  });
});
