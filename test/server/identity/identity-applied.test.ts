import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Identity } from '../../../lib/api/schemas/identity';
import type { CdpMessage, CdpPipe } from '../../../server/browser/cdp-pipe';
import { applyIdentity } from '../../../server/identity/apply';
import type { CheckReadings } from '../../../server/identity/check-page';
import { generateIdentity } from '../../../server/identity/generate';
import { presentIdentity } from '../../../server/identity/presented';
import type { ScopeReading } from '../../../server/identity/scope-reading';
import { launchBrowser } from '../../../server/sessions/launch-browser';
import { CHROMIUM, LOOPBACK_ALLOWED, makeTempDir, relayDevtools } from '../../support/browser-fixtures';
import { seededRandom } from '../../support/seeded-random';
import { serviceSuite } from '../../support/service-suite';

const suite = serviceSuite({
  plan: 'enterprise',
  env: { EGRESS_ALLOW: 'loopback' },
  checkPages: 'localhost',
});
const scratch = makeTempDir('pp-identity-bare-');

afterAll(() => scratch.remove());

/** The check page's readings, through a Playwright client connected with default options. */
async function readThroughPlaywright(cdpUrl: string): Promise<CheckReadings> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
    await page.goto(`${suite.pages.origin}/`);
    const readings = (await page.evaluate('window.identitySurfaces')) as CheckReadings;
    await page.close();
    return readings;
  } finally {
    await browser.close();
  }
}

function expectDevice(reading: ScopeReading, identity: Identity, engineMajor: string) {
  expect(reading.user_agent).toBe(
    identity.user_agent.replace(/Chrome\/[\d.]+/, `Chrome/${engineMajor}.0.0.0`),
  );
  expect(reading.platform).toBe(identity.navigator_platform);
  expect(reading.cpu_cores).toBe(identity.hardware.cpu_cores);
  expect(reading.memory_gb).toBe(identity.hardware.memory_gb);
  expect(reading.client_hints).toMatchObject(identity.client_hints);
  expect(reading.client_hints?.brands.find((entry) => entry.brand === 'Chromium')?.version).toBe(engineMajor);
  // A new identity claims the host's GPU: the page reads the host's own.
  if (identity.webgl) expect(reading.webgl).toEqual(identity.webgl);
  else expect(reading.webgl?.renderer).toEqual(expect.any(String));
  expect(reading.looks_native).toBe(true);
}

describe('a profile’s identity in its browser', () => {
  it('is the same in page, frame, worker and headers, with the engine’s version, for a default client', async () => {
    const profile = await suite.api.createProfile({ name: 'Linux identity' });
    const identity = profile.identity as Identity;
    const session = await suite.api.startSession({ profile_id: profile.id, headless: true });
    const readings = await readThroughPlaywright(session.cdp_url as string);
    const engineMajor = /Chrome\/(\d+)/.exec(readings.page.user_agent)?.[1] as string;
    expect(readings.page.client_hints?.full_version_list.map((entry) => entry.brand)).toContain('Chromium');
    for (const scope of ['page', 'frame', 'worker'] as const) {
      const reading = readings[scope];
      expect(reading, scope).not.toBeNull();
      expectDevice(reading as ScopeReading, identity, engineMajor);
      expect(reading?.languages).toEqual(readings.page.languages);
      expect(reading?.timezone).toBe(readings.page.timezone);
    }
    const { screen, window } = identity;
    expect(readings.page.screen).toEqual({
      width: screen.width,
      height: screen.height,
      avail_width: screen.avail_width,
      avail_height: screen.avail_height,
      color_depth: screen.color_depth,
      pixel_ratio: screen.pixel_ratio,
    });
    for (const path of ['/', '/frame', '/worker-fetch']) {
      const headers = suite.pages.headersOf(path);
      expect(headers?.['user-agent'], path).toBe(readings.page.user_agent);
      expect(headers?.['accept-language'], path).toMatch(new RegExp(`^${readings.page.languages[0]},`));
      // Chromium sends no client hints with a worker's own requests; where it sends them, they agree.
      if (path === '/worker-fetch' && headers?.['sec-ch-ua'] === undefined) continue;
      expect(headers?.['sec-ch-ua-platform'], path).toBe(`"${identity.client_hints.platform}"`);
      expect(headers?.['sec-ch-ua'], path).toBe(
        readings.page.client_hints?.brands
          .map(({ brand, version }) => `"${brand}";v="${version}"`)
          .join(', '),
      );
    }
    expect(suite.pages.headersOf('/page-fetch')).toMatchObject({
      'sec-ch-ua-platform-version': `"${identity.client_hints.platform_version}"`,
      'sec-ch-ua-arch': `"${identity.client_hints.architecture}"`,
      'sec-ch-ua-bitness': `"${identity.client_hints.bitness}"`,
      'sec-ch-ua-full-version-list': readings.page.client_hints?.full_version_list
        .map(({ brand, version }) => `"${brand}";v="${version}"`)
        .join(', '),
    });

    // Puppeteer sets an 800×600 viewport on every page by default: the screen stays the profile's.
    const puppet = await puppeteer.connect({ browserWSEndpoint: session.cdp_url as string });
    const page = await puppet.newPage();
    await page.goto(`${suite.pages.origin}/`);
    const seen = (await page.evaluate('window.identitySurfaces')) as CheckReadings;
    expect(seen.page.screen).toMatchObject({
      width: screen.width,
      height: screen.height,
      pixel_ratio: screen.pixel_ratio,
    });
    expectDevice(seen.page, identity, engineMajor);
    await page.close();
    await puppet.disconnect();
    expect(window.width).toBeGreaterThan(0);

    // A run's tab is reached the same way.
    const queued = await suite.api.runAutomation({
      session_id: session.id,
      script: {
        steps: [
          { action: 'goto', url: `${suite.pages.origin}/` },
          {
            action: 'evaluate',
            expression: 'window.identitySurfaces.then((seen) => JSON.stringify(seen.worker))',
            name: 'worker',
          },
        ],
      },
    });
    const run = await suite.api.getRun(queued.id, { wait: 25, until: 'finished' });
    expect(run.status).toBe('succeeded');
    expectDevice(JSON.parse(String(run.output.worker)) as ScopeReading, identity, engineMajor);
    await suite.api.stopSession({ session_id: session.id });
  });

  it('presents the brands Chromium itself sends for its version', async () => {
    const profile = await suite.api.createProfile({ name: 'Brands' });
    const session = await suite.api.startSession({ profile_id: profile.id, headless: true });
    const check = await suite.api.checkProfileIdentity(profile.id);
    const brands = check.surfaces.find((surface) => surface.surface === 'client_hints.brands');
    await suite.api.stopSession({ session_id: session.id });
    expect(check.surfaces.filter((surface) => surface.verdict === 'mismatch')).toEqual([]);
    expect(check).toMatchObject({ ok: true, temporary_session: false, session_id: session.id });
    // A browser with no identity at all sends its own brands: the presented ones are the same.
    const bare = await launchBrowser({
      chromePath: CHROMIUM,
      userDataDir: scratch.path,
      headless: true,
      proxy: null,
      fingerprint: {},
      egress: LOOPBACK_ALLOWED,
    });
    try {
      const relay = await relayDevtools(bare);
      const client = await chromium.connectOverCDP(relay.url);
      const page = await (client.contexts()[0] ?? (await client.newContext())).newPage();
      await page.goto(`${suite.pages.origin}/`);
      expect(await page.evaluate('navigator.userAgentData.brands')).toEqual(brands?.claimed);
      await client.close();
      await relay.close();
    } finally {
      await bare.stop();
    }
  });

  // Screens whose CSS size times the pixel ratio falls on a half pixel (about one generated identity in ten),
  // and one with a work area: Chromium rounds the device size up when it divides it back.
  it.each([
    { width: 1680, height: 1050, avail_width: 1680, avail_height: 1050, pixel_ratio: 1.25 },
    { width: 1707, height: 960, avail_width: 1707, avail_height: 960, pixel_ratio: 1.5 },
    { width: 1536, height: 864, avail_width: 1480, avail_height: 837, pixel_ratio: 1.25 },
  ])('shows a $width×$height screen at a pixel ratio of $pixel_ratio exactly as claimed', async (size) => {
    const generated = (await suite.api.createProfile({ name: 'Generated' })).identity as Identity;
    // The window fits the work area, as a real one does (the check fails one reaching past it).
    const window = { width: size.avail_width, height: size.avail_height };
    const identity = { ...generated, screen: { ...generated.screen, ...size }, window };
    const profile = await suite.api.createProfile({ name: 'Fractional screen', identity });
    const check = await suite.api.checkProfileIdentity(profile.id);
    const screen = check.surfaces.find((surface) => surface.surface === 'screen');
    expect(screen?.seen.page).toEqual(identity.screen);
    expect(check.ok).toBe(true);
  });
});

describe('the service’s own DevTools session', () => {
  it('prepares each page by one path: a relayed client’s browser session and what it attaches stay the client’s', async () => {
    const listeners: ((message: CdpMessage) => void)[] = [];
    const sent: { method: string; sessionId?: string }[] = [];
    const pipe = {
      onMessage: (listener: (message: CdpMessage) => void) => listeners.push(listener),
      send: async (method: string, _params?: Record<string, unknown>, sessionId?: string) => {
        sent.push({ method, sessionId });
        return method === 'Browser.getVersion' ? { product: 'HeadlessChrome/156.0.7000.1' } : {};
      },
    } as unknown as CdpPipe;
    await applyIdentity(pipe, presentIdentity(generateIdentity(undefined, seededRandom(51)), {}, null));
    const attached = (sessionId: string, type: string, on?: string) => {
      const message = {
        method: 'Target.attachedToTarget',
        params: { sessionId, targetInfo: { type, url: 'about:blank' } },
      };
      for (const listener of listeners) listener(on ? { ...message, sessionId: on } : message);
    };
    // As Chromium tells them: a client's Target.attachToBrowserTarget is announced on the browser session, the
    // page the client opens is attached on the browser session and on the client's.
    attached('client', 'browser');
    attached('own-page', 'page');
    attached('client-page', 'page', 'client');
    await vi.waitFor(() =>
      expect(sent.map((command) => command.method)).toContain('Runtime.runIfWaitingForDebugger'),
    );
    const sessions = new Set(sent.map((command) => command.sessionId));
    expect(sessions).toEqual(new Set([undefined, 'own-page']));
    expect(sent.filter((command) => command.method === 'Page.addScriptToEvaluateOnNewDocument')).toHaveLength(
      1,
    );
  });
});
