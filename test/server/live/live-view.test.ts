import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { Session } from '../../../lib/api/schemas/sessions';
import { CHROMIUM } from '../../support/browser-fixtures';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let api: ApiClient;
let viewers: Browser;

/** Long enough for a test to connect to a session it started; short enough to see an unwatched one stop. */
const IDLE_TIMEOUT_S = 5;

beforeAll(async () => {
  [service, viewers] = await Promise.all([
    startServiceInProcess({ env: { SESSION_IDLE_TIMEOUT: String(IDLE_TIMEOUT_S) } }),
    chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true }),
  ]);
  api = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
});

afterAll(async () => {
  await viewers?.close();
  await service?.close();
});

async function startSession(name: string): Promise<Session> {
  const profile = await api.createProfile({ name });
  return api.startSession({ profile_id: profile.id, headless: true });
}

/** A page whose background is one colour, which records the clicks and keeps a text field. */
function pageOf(colour: string, title: string): string {
  return `data:text/html,<title>${title}</title><style>body{margin:0;background:${colour}}input{position:absolute;left:20px;top:300px;width:300px}</style><input id="field"><script>window.clicks=[];addEventListener('mousedown',e=>clicks.push([e.clientX,e.clientY,e.detail]))</script>`;
}

/** The colour of the viewer's picture at a point of the session's page, read off the shown frame. */
function colourAt(viewer: Page, x: number, y: number): Promise<number[]> {
  return viewer.evaluate(
    ({ x, y }) => {
      const image = document.getElementById('screen') as HTMLImageElement;
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      context.drawImage(image, 0, 0);
      const scale = image.naturalWidth / window.frameWidth;
      return [...context.getImageData(Math.round(x * scale), Math.round(y * scale), 1, 1).data].slice(0, 3);
    },
    { x, y },
  );
}

async function untilColour(viewer: Page, x: number, y: number, near: number[]): Promise<void> {
  await expect
    .poll(
      async () =>
        colourAt(viewer, x, y).then((rgb) => rgb.every((v, i) => Math.abs(v - (near[i] ?? 0)) < 40)),
      {
        timeout: 10_000,
      },
    )
    .toBe(true);
}

/** Where a point of the session's page is on the viewer's screen (the picture is letterboxed to fit). */
async function screenPoint(viewer: Page, x: number, y: number) {
  return viewer.evaluate(
    ({ x, y }) => {
      const box = (document.getElementById('screen') as HTMLElement).getBoundingClientRect();
      const width = window.frameWidth;
      const height = window.frameHeight;
      const scale = Math.min(box.width / width, box.height / height);
      return {
        x: box.left + (box.width - width * scale) / 2 + x * scale,
        y: box.top + (box.height - height * scale) / 2 + y * scale,
      };
    },
    { x, y },
  );
}

declare global {
  interface Window {
    frameWidth: number;
    frameHeight: number;
    clicks: number[][];
  }
}

async function openViewer(url: string, size = { width: 900, height: 700 }): Promise<Page> {
  const viewer = await viewers.newPage({ viewport: size });
  await viewer.goto(url);
  await viewer.waitForFunction(() => Number(document.body.dataset.frames ?? 0) > 0);
  return viewer;
}

/**
 * Whether the page's last click landed on (150, 120), and its count. The picture is scaled down to the viewer's
 * window (a profile's identity often has a wide screen), so one pixel of the viewer is `slack` pixels of the page.
 */
async function lastClick(tab: Page, slack: number) {
  const [x = 0, y = 0, detail] = (await tab.evaluate(() => window.clicks.at(-1))) ?? [];
  return { near: Math.abs(x - 150) <= slack && Math.abs(y - 120) <= slack, detail };
}

function socketOf(pageUrl: string): WebSocket {
  return new WebSocket(`${pageUrl.replace(/^http/, 'ws')}/socket`);
}

describe('live view', () => {
  it('shows the session’s tab, sends clicks, keys and pasted text to it, and switches tabs', async () => {
    const session = await startSession('Watched');
    expect(session.live_view_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/live\/ses_\w+\/c\.\d+\.[\w-]{43}$/);
    expect(session.live_view_readonly_url).toMatch(/\/live\/ses_\w+\/v\.\d+\.[\w-]{43}$/);
    const devtools = await chromium.connectOverCDP(session.cdp_url as string);
    try {
      const [tab] = devtools.contexts()[0]?.pages() ?? [];
      if (!tab) throw new Error('the session has no tab');
      await tab.goto(pageOf('rgb(200,30,30)', 'Red'));
      const pageSize = await tab.evaluate(() => [innerWidth, innerHeight]);

      const viewer = await openViewer(session.live_view_url as string);
      const [pageWidth = 1, pageHeight = 1] = pageSize;
      const slack = Math.max(1, Math.ceil(1 / Math.min(900 / pageWidth, 700 / pageHeight)));
      await viewer.evaluate(([w, h]) => Object.assign(window, { frameWidth: w, frameHeight: h }), pageSize);
      await untilColour(viewer, 400, 100, [200, 30, 30]);
      // The viewer's window does not change the session's page.
      expect(await tab.evaluate(() => [innerWidth, innerHeight])).toEqual(pageSize);

      // A change in the session's page reaches the viewer.
      await tab.evaluate(() => {
        document.body.style.background = 'rgb(30,30,200)';
      });
      await untilColour(viewer, 400, 100, [30, 30, 200]);

      const at = await screenPoint(viewer, 150, 120);
      await viewer.mouse.click(at.x, at.y);
      await expect.poll(() => lastClick(tab, slack)).toEqual({ near: true, detail: 1 });
      await viewer.mouse.dblclick(at.x, at.y);
      await expect.poll(() => lastClick(tab, slack)).toEqual({ near: true, detail: 2 });

      const field = await screenPoint(viewer, 100, 310);
      await viewer.mouse.click(field.x, field.y);
      await viewer.keyboard.type('Hello, world');
      await viewer.keyboard.press('Backspace');
      await expect
        .poll(() => tab.evaluate(() => (document.getElementById('field') as HTMLInputElement).value))
        .toBe('Hello, worl');
      await viewer.evaluate(() => {
        const clipboardData = new DataTransfer();
        clipboardData.setData('text/plain', ' pasted');
        window.dispatchEvent(new ClipboardEvent('paste', { clipboardData }));
      });
      await expect
        .poll(() => tab.evaluate(() => (document.getElementById('field') as HTMLInputElement).value))
        .toBe('Hello, worl pasted');
      // A shortcut: select all, then type over it.
      await viewer.keyboard.press('Control+A');
      await viewer.keyboard.type('Shortcut');
      await expect
        .poll(() => tab.evaluate(() => (document.getElementById('field') as HTMLInputElement).value))
        .toBe('Shortcut');

      // A second tab is listed; choosing it shows it and brings it to the front of the session.
      const second = await devtools.contexts()[0]?.newPage();
      await second?.goto(pageOf('rgb(30,160,30)', 'Green'));
      await tab.bringToFront();
      await expect.poll(() => viewer.getByRole('tab').allTextContents()).toContain('Green');
      await viewer.getByRole('tab', { name: 'Green' }).click();
      await untilColour(viewer, 400, 100, [30, 160, 30]);
      await expect.poll(() => second?.evaluate(() => document.visibilityState)).toBe('visible');
    } finally {
      await devtools.close();
      await api.stopSession({ session_id: session.id });
    }
  });

  it('shows a view-only address without control: the server takes no input from it', async () => {
    const session = await startSession('Shown');
    const devtools = await chromium.connectOverCDP(session.cdp_url as string);
    try {
      const [tab] = devtools.contexts()[0]?.pages() ?? [];
      if (!tab) throw new Error('the session has no tab');
      await tab.goto(pageOf('rgb(200,30,30)', 'Red'));
      const viewer = await openViewer(session.live_view_readonly_url as string);
      expect(await viewer.locator('#mode').textContent()).toBe('View only');
      await viewer.mouse.click(200, 200);

      // A client that sends input anyway is disconnected, and the page receives nothing.
      const socket = socketOf(session.live_view_readonly_url as string);
      await new Promise((resolve) => socket.once('open', resolve));
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      for (const event of ['down', 'up'])
        socket.send(
          JSON.stringify({
            type: 'mouse',
            event,
            x: 100,
            y: 100,
            button: 'left',
            clicks: 1,
            deltaX: 0,
            deltaY: 0,
            modifiers: 0,
          }),
        );
      socket.send(JSON.stringify({ type: 'text', text: 'typed' }));
      expect(await closed).toBe(1008);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await tab.evaluate(() => window.clicks)).toEqual([]);
    } finally {
      await devtools.close();
      await api.stopSession({ session_id: session.id });
    }
  });

  it('shows a tab that sits still: the first picture comes without the page changing', async () => {
    const session = await startSession('Still');
    // Long enough for the blank tab to have painted all it will (the idle timeout is further off).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const viewer = await openViewer(session.live_view_readonly_url as string);
    expect(await viewer.evaluate(() => Number(document.body.dataset.frames))).toBeGreaterThan(0);
    await viewer.close();
    await api.stopSession({ session_id: session.id });
  });

  it('refuses a forged address, another session’s token, a view-only one made to control, and the address of a stopped session; logs no token', async () => {
    const one = await startSession('One');
    const url = one.live_view_url as string;
    // Watched, the session does not stop as idle while the rest is checked.
    const viewer = await openViewer(url);
    const two = await startSession('Two');
    const forged = url.replace(/\.[\w-]{43}$/, `.${'A'.repeat(43)}`);
    const swapped = url.replace(one.id, two.id);
    const upgraded = (one.live_view_readonly_url as string).replace('/v.', '/c.');
    for (const address of [forged, swapped, upgraded]) {
      expect((await fetch(address)).status).toBe(404);
      expect(await refusedUpgrade(address)).toBe(404);
    }
    const page = await fetch(url);
    expect(page.status).toBe(200);
    // The address is the credential: no referrer carries it away, no form posts it, no frame holds it.
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toContain("form-action 'none'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    // The address is the credential: the request log names the page without it.
    const token = url.split('/').at(-1) as string;
    await expect.poll(() => service.logs.some((line) => line.includes(`/live/${one.id}/`))).toBe(true);
    expect(service.logs.filter((line) => line.includes(token.slice(-20)))).toEqual([]);

    await api.stopSession({ session_id: one.id });
    await viewer.waitForFunction(() => document.body.dataset.closed !== undefined);
    expect((await fetch(url)).status).toBe(404);
    expect(await refusedUpgrade(url)).toBe(404);
    await api.stopSession({ session_id: two.id });
  });

  it('counts each opening of the view as one request of the account’s hourly limit', async () => {
    let quota: number | null = null;
    const free = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('free'),
      fetch,
      onQuota: (seen) => {
        quota = seen.remaining;
      },
    });
    const profile = await free.createProfile({ name: 'Counted' });
    const session = await free.startSession({ profile_id: profile.id, headless: true });
    const remaining = async () => {
      await free.getSession(session.id);
      return quota;
    };
    try {
      const before = await remaining();
      const socket = socketOf(session.live_view_url as string);
      await new Promise((resolve) => socket.once('message', resolve));
      socket.close();
      // This read is one request, the view another.
      expect(await remaining()).toBe((before ?? Number.NaN) - 2);
    } finally {
      await free.stopSession({ session_id: session.id });
    }
  });

  it('keeps a watched session from being stopped as idle', async () => {
    const session = await startSession('Idle');
    const socket = socketOf(session.live_view_readonly_url as string);
    await new Promise((resolve) => socket.once('open', resolve));
    await new Promise((resolve) => setTimeout(resolve, (IDLE_TIMEOUT_S + 2) * 1000));
    expect(await api.getSession(session.id)).toMatchObject({ status: 'running' });
    socket.close();
    await expect
      .poll(() => api.getSession(session.id), { timeout: (IDLE_TIMEOUT_S + 10) * 1000 })
      .toMatchObject({ status: 'stopped', stop_reason: 'idle' });
  }, 60_000);
});

/** The HTTP status a WebSocket upgrade at the address's socket is refused with, or 0 when it opens. */
function refusedUpgrade(pageUrl: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = socketOf(pageUrl);
    socket.once('open', () => {
      socket.close();
      resolve(0);
    });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', () => {});
  });
}
