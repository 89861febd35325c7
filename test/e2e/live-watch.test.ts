/**
 * The popup's Sessions view shows what a session is doing (its page and a picture), and Watch opens its live view
 * in a tab: a browser's bar over the session's page, which fills the window at the page's proportions at 1280 and
 * at 390 px (or, zoomed to 100%, at the page's own size, scrolled to pan), and takes the person's typing and clicks;
 * after Stop its controls are disabled. Saves the README's screenshots of it on the way.
 */
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createClient } from '../../lib/api/client';
import { type ServiceHandle, startService } from '../support/harness';
import { cleanupStack } from './support/cleanup';
import { type Extension, openExtension } from './support/extension';
import { goTo, rowOf } from './support/popup';

const cleanup = cleanupStack();
let service: ServiceHandle;
let extension: Extension;

/** A sign-in page at fixed places, whose script counts the button's clicks. */
const SIGN_IN = `data:text/html;charset=utf-8,${encodeURIComponent(`<!doctype html><title>Sign in · Corner Shop</title>
<style>body{margin:0;font:18px system-ui;background:#f4f1ea;color:#222}h1{position:absolute;left:40px;top:30px;margin:0}
input,button{position:absolute;left:40px;width:320px;height:40px;font:inherit;box-sizing:border-box}
#code{top:120px}#go{top:180px}#said{position:absolute;left:40px;top:240px}</style>
<h1>Corner Shop</h1><input id="code" placeholder="Enter the code we sent you"><button id="go">Continue</button>
<p id="said">Not sent yet</p>
<script>let clicks=0;document.getElementById('go').onclick=()=>{clicks+=1;
document.getElementById('said').textContent='Sent '+document.getElementById('code').value+' ('+clicks+')'}</script>`)}`;

beforeAll(async () => {
  [service, extension] = await Promise.all([
    startService().then((started) => cleanup.add(started, (it) => it.close())),
    openExtension().then((opened) => cleanup.add(opened, (it) => it.close())),
  ]);
});

afterAll(() => cleanup.run());

/** Where a point of the session's page is on the viewer's screen (the picture fills its place at its proportions). */
function onScreen(view: Page, x: number, y: number) {
  return view.evaluate(
    ({ x, y }) => {
      const image = document.getElementById('screen') as HTMLImageElement;
      const box = image.getBoundingClientRect();
      const scale = box.width / Number(image.dataset.pageWidth);
      return { x: box.left + x * scale, y: box.top + y * scale };
    },
    { x, y },
  );
}

/**
 * Whether the picture fills the viewer's place for it at the page's proportions: as wide as the place or as tall
 * (which one depends on the page's shape, which comes from the profile's drawn screen).
 */
function fillsItsPlace(view: Page, page: { width: number; height: number }) {
  return view.evaluate(({ width, height }) => {
    const picture = (document.getElementById('screen') as HTMLImageElement).getBoundingClientRect();
    const place = (document.querySelector('main') as HTMLElement).getBoundingClientRect();
    const proportional = Math.abs(picture.width / picture.height - width / height) < 0.02;
    const fills = Math.abs(picture.width - place.width) < 2 || Math.abs(picture.height - place.height) < 2;
    return proportional && fills && picture.width <= place.width + 1 && picture.height <= place.height + 1;
  }, page);
}

async function saveView(view: Page, name: string): Promise<void> {
  await view.screenshot({ path: path.join(inject('screenshotsDir'), `${name}.png`), caret: 'hide' });
}

it('shows the session’s page in the popup, and Watch opens a live view the person types into and clicks, at 1280 and 390 px', async () => {
  const key = await service.createKey('enterprise');
  const api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  const profile = await api.createProfile({ name: 'Corner Shop' });
  const session = await api.startSession({ profile_id: profile.id, headless: true });
  cleanup.add(session, () => api.stopSession({ session_id: session.id }));
  const devtools = await chromium.connectOverCDP(session.cdp_url as string);
  cleanup.add(devtools, (it) => it.close());
  const tab = devtools.contexts()[0]?.pages()[0];
  if (!tab) throw new Error('the session has no tab');
  await tab.goto(SIGN_IN);

  const popup = await extension.openPopup();
  await popup.getByLabel('Service URL').fill(service.baseUrl);
  await popup.getByLabel('API key').fill(key);
  await popup.getByRole('button', { name: 'Connect' }).click();
  await popup.getByRole('status').filter({ hasText: 'Connected to' }).waitFor();
  await goTo(popup, 'Sessions');
  const row = rowOf(popup, 'Corner Shop');
  await expect.poll(() => row.textContent()).toContain('On Sign in · Corner Shop');
  await row.locator('img.thumb').waitFor();
  await popup.getByLabel('Search sessions').fill('nothing like it');
  await popup.getByText('No running session matches.').waitFor();
  await popup.getByLabel('Search sessions').fill('corner');
  await expect(row.getByRole('button', { name: 'Copy view-only link of Corner Shop' }).count()).resolves.toBe(
    1,
  );

  const opened = extension.context.waitForEvent('page');
  await row.getByRole('button', { name: 'Watch Corner Shop' }).click();
  const view = await opened;
  await view.setViewportSize({ width: 1280, height: 800 });
  await view.waitForFunction(() => Number(document.body.dataset.frames ?? 0) > 0);
  expect(view.url()).toMatch(new RegExp(`^${service.baseUrl}/live/${session.id}/c\\.`));
  await expect(view.locator('#profile').textContent()).resolves.toBe('Corner Shop');
  await expect(view.getByRole('tab', { selected: true }).textContent()).resolves.toBe(
    'Sign in · Corner Shop',
  );
  // The page's own size, for placing clicks on the picture.
  const [pageWidth, pageHeight] = await tab.evaluate(() => [innerWidth, innerHeight]);
  await view.evaluate((width) => {
    (document.getElementById('screen') as HTMLImageElement).dataset.pageWidth = String(width);
  }, pageWidth);

  const field = await onScreen(view, 200, 140);
  await view.mouse.click(field.x, field.y);
  await view.keyboard.type('4711');
  const button = await onScreen(view, 200, 200);
  await view.mouse.click(button.x, button.y);
  await expect.poll(() => tab.locator('#said').textContent()).toBe('Sent 4711 (1)');
  expect(await view.evaluate(() => document.querySelector('main')?.clientWidth)).toBe(1280);
  await expect.poll(() => fillsItsPlace(view, { width: pageWidth, height: pageHeight })).toBe(true);
  await view.waitForTimeout(500);
  await saveView(view, 'live-view-1280');

  await view.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() => view.evaluate(() => (document.getElementById('screen') as HTMLImageElement).naturalWidth))
    .toBeLessThanOrEqual(390);
  await expect.poll(async () => (await view.locator('#screen').boundingBox())?.width).toBeCloseTo(390, 0);
  const again = await onScreen(view, 200, 140);
  await view.mouse.click(again.x, again.y);
  await view.keyboard.press('End');
  await view.keyboard.type('2');
  const second = await onScreen(view, 200, 200);
  await view.mouse.click(second.x, second.y);
  await expect.poll(() => tab.locator('#said').textContent()).toBe('Sent 47112 (2)');
  await view.waitForTimeout(500);
  await saveView(view, 'live-view-390');

  await view.getByLabel('Zoom').selectOption({ label: '100%' });
  // The frames measure the page in CSS pixels from device pixels: at some pixel ratios with a fraction (2135.55 for
  // an innerWidth of 2135).
  await expect
    .poll(async () => Math.abs(((await view.locator('#screen').boundingBox())?.width ?? 0) - pageWidth))
    .toBeLessThan(1);
  expect(await view.evaluate(() => document.querySelector('main')?.scrollWidth)).toBeGreaterThan(390);
  const zoomed = await onScreen(view, 200, 140);
  await view.mouse.click(zoomed.x, zoomed.y);
  await view.keyboard.press('End');
  await view.keyboard.type('3');
  const third = await onScreen(view, 200, 200);
  await view.mouse.click(third.x, third.y);
  await expect.poll(() => tab.locator('#said').textContent()).toBe('Sent 471123 (3)');
  await view.waitForTimeout(500);
  await saveView(view, 'live-view-390-zoomed');

  await view.getByRole('button', { name: 'Stop', exact: true }).click();
  await view.getByRole('button', { name: 'Stop session' }).click();
  for (const name of ['Back', 'Reload', 'Stop', 'Copy view-only link'])
    await expect(view.getByRole('button', { name, exact: true }).isDisabled()).resolves.toBe(true);
  await expect(view.getByLabel('Address').getAttribute('readonly')).resolves.toBe('');
});
