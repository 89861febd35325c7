/**
 * The live view's bar and frame in a real browser: Stop asks first, then stops the session; a view-only socket
 * that sends the bar's controls anyway is closed and changes nothing; the frame fills a 390 px wide viewer at the
 * page's proportions, made for that width (not a larger frame shrunk).
 */
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { CHROMIUM } from '../../support/browser-fixtures';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let api: ApiClient;
let viewers: Browser;

beforeAll(async () => {
  [service, viewers] = await Promise.all([
    startServiceInProcess(),
    chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true }),
  ]);
  api = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
});

afterAll(async () => {
  await viewers?.close();
  await service?.close();
});

async function startSession(name: string) {
  const profile = await api.createProfile({ name });
  return api.startSession({ profile_id: profile.id, headless: true });
}

it('refuses the bar’s controls from a view-only socket: closed, and the session runs on', async () => {
  const session = await startSession('Shared');
  try {
    for (const control of [
      { type: 'stop' },
      { type: 'navigate', url: 'https://example.com/' },
      { type: 'go', step: -1 },
      { type: 'reload' },
    ]) {
      const socket = new WebSocket(
        `${(session.live_view_readonly_url as string).replace(/^http/, 'ws')}/socket`,
      );
      await new Promise((resolve) => socket.once('message', resolve));
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      socket.send(JSON.stringify(control));
      expect(await closed).toBe(1008);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await api.getSession(session.id)).toMatchObject({ status: 'running' });
  } finally {
    await api.stopSession({ session_id: session.id });
  }
});

it('fills a 390 px viewer at the page’s proportions, and Stop asks first, then stops the session', async () => {
  const session = await startSession('Phone');
  const viewer = await viewers.newPage({ viewport: { width: 390, height: 844 } });
  await viewer.goto(session.live_view_url as string);
  await viewer.waitForFunction(() => Number(document.body.dataset.frames ?? 0) > 0);
  const picture = () =>
    viewer.evaluate(() => {
      const image = document.getElementById('screen') as HTMLImageElement;
      const box = image.getBoundingClientRect();
      return { natural: [image.naturalWidth, image.naturalHeight], box: [box.width, box.height] };
    });
  // Frames come made for this width (the first may still be the default size).
  await expect.poll(async () => (await picture()).natural[0], { timeout: 10_000 }).toBeLessThanOrEqual(390);
  const {
    natural: [frameWidth = 0, frameHeight = 1],
    box: [shownWidth = 0, shownHeight = 1],
  } = await picture();
  expect(shownWidth).toBeCloseTo(390, 0);
  expect(shownWidth / shownHeight).toBeCloseTo(frameWidth / frameHeight, 1);

  await viewer.getByRole('button', { name: 'Stop', exact: true }).click();
  await expect(api.getSession(session.id)).resolves.toMatchObject({ status: 'running' });
  await viewer.getByRole('button', { name: 'Stop session' }).click();
  await expect
    .poll(() => api.getSession(session.id), { timeout: 15_000 })
    .toMatchObject({ status: 'stopped', stop_reason: 'user' });
  await viewer.waitForFunction(() => document.body.dataset.closed !== undefined);
  await viewer.close();
});
