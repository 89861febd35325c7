import { type Browser, chromium, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Identity } from '../../../lib/api/schemas/identity';
import { type DetectorReading, readDetector } from '../../../server/identity/detector-page';
import {
  registerServiceWorker,
  type ServiceWorkerReading,
} from '../../../server/identity/service-worker-page';
import { launchBrowser } from '../../../server/sessions/launch-browser';
import { CHROMIUM, LOOPBACK_ALLOWED, makeTempDir, relayDevtools } from '../../support/browser-fixtures';
import { serviceSuite } from '../../support/service-suite';

const suite = serviceSuite({
  plan: 'enterprise',
  env: { EGRESS_ALLOW: 'loopback' },
  checkPages: 'localhost',
});

// A TypeScript runner may wrap named functions in a `__name` helper of its own: a local one stands in for it.
const PRELUDE = 'const __name = (f) => f;';
const detect = (page: Page) =>
  page.evaluate(
    `(() => { ${PRELUDE} return (${readDetector.toString()})(); })()`,
  ) as Promise<DetectorReading>;

async function withSession<T>(identity: Identity | undefined, use: (browser: Browser) => Promise<T>) {
  const profile = await suite.api.createProfile({ name: 'Realms', ...(identity ? { identity } : {}) });
  const session = await suite.api.startSession({ profile_id: profile.id, headless: true });
  const browser = await chromium.connectOverCDP(session.cdp_url as string);
  try {
    return await use(browser);
  } finally {
    await browser.close();
    await suite.api.stopSession({ session_id: session.id });
  }
}

/** A tab made with a bare `Target.createTarget`, as a client with no auto-attach of its own makes one. */
async function bareTab(browser: Browser, url: string): Promise<Page> {
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const appearing = context.waitForEvent('page');
  const cdp = await browser.newBrowserCDPSession();
  await cdp.send('Target.createTarget', { url });
  const page = await appearing;
  await page.waitForLoadState();
  return page;
}

/** An identity of the kind made before the host's own GPU and memory were claimed: both are replaced by script. */
async function replacingIdentity(): Promise<Identity> {
  const generated = (await suite.api.createProfile({ name: 'Generated' })).identity as Identity;
  return {
    ...generated,
    hardware: { ...generated.hardware, memory_gb: 2 },
    webgl: {
      vendor: 'Google Inc. (Intel)',
      renderer: 'ANGLE (Intel, Mesa Intel(R) Xe Graphics, OpenGL 4.6)',
    },
  };
}

describe('a profile’s session as a site’s own scripts see it', () => {
  it('registers a service worker about as fast as a bare browser, which updates and answers fetch with the identity', async () => {
    const register = async (browser: Browser) => {
      const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
      await page.goto(`${suite.pages.origin}/blank`);
      return (await page.evaluate(
        `(() => { ${PRELUDE} return (${registerServiceWorker.toString()})('/service-worker.js', 20000, true); })()`,
      )) as ServiceWorkerReading;
    };
    const reading = await withSession(undefined, register);
    // The same registration in a browser with no identity, in this run (the machine is shared and noisy).
    const scratch = makeTempDir('pp-identity-sw-');
    const bare = await launchBrowser({
      chromePath: CHROMIUM,
      userDataDir: scratch.path,
      headless: true,
      proxy: null,
      fingerprint: {},
      egress: LOOPBACK_ALLOWED,
    });
    let baseline: ServiceWorkerReading;
    try {
      const relay = await relayDevtools(bare);
      const client = await chromium.connectOverCDP(relay.url);
      baseline = await register(client);
      await client.close();
      await relay.close();
    } finally {
      await bare.stop();
      scratch.remove();
    }
    expect(baseline.registered).toBe(true);
    expect(reading.error).toBeNull();
    expect(reading.registered).toBe(true);
    expect(reading.ms).toBeLessThan(Math.max(2000, baseline.ms * 3));
    expect(reading.answer?.user_agent).toMatch(/X11; Linux x86_64/);
    expect(reading.answer?.cpu_cores).toBeGreaterThan(0);
  });

  it('gives the same read-backs every time, in tabs opened by Playwright and by a bare Target.createTarget', async () => {
    const identity = await replacingIdentity();
    const readings = await withSession(identity, async (browser) => {
      const context = browser.contexts()[0] ?? (await browser.newContext());
      const byPlaywright = await context.newPage();
      await byPlaywright.goto(`${suite.pages.origin}/blank`);
      const byTarget = await bareTab(browser, `${suite.pages.origin}/blank`);
      return [await detect(byPlaywright), await detect(byTarget)];
    });
    for (const reading of readings) {
      expect(reading.read_backs).toEqual({ canvas: true, canvas_round_trip: true, webgl: true, audio: true });
      expect(reading.memory_gb).toBe(2);
      expect(reading.webgl?.renderer).toBe(identity.webgl?.renderer);
      expect(reading.form_factors).toEqual(['Desktop']);
      // Inside the work area, but for the pixel Chromium rounds up at a fractional pixel ratio (as the check allows).
      expect(reading.window_overflow.right).toBeLessThanOrEqual(1);
      expect(reading.window_overflow.bottom).toBeLessThanOrEqual(1);
    }
  });

  it('shows no replaced function as replaced from a fresh frame, by its receiver errors or in stacks', async () => {
    const reading = await withSession(await replacingIdentity(), async (browser) => {
      const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
      await page.goto(`${suite.pages.origin}/blank`);
      return detect(page);
    });
    expect(reading.memory_gb).toBe(2);
    expect(reading.shown_replaced).toEqual([]);
    expect(reading.wrong_receiver).toEqual([]);
    expect(reading.injected_frames).toEqual([]);
  });
});

describe('the identity check', () => {
  it('sees what a detector sees: passes a real identity, fails a broken one on each contradiction', async () => {
    const real = await suite.api.createProfile({ name: 'Real' });
    const passed = await suite.api.checkProfileIdentity(real.id);
    expect(passed.surfaces.filter((surface) => surface.verdict === 'mismatch')).toEqual([]);
    const seen = (surface: string) => passed.surfaces.find((entry) => entry.surface === surface)?.seen.page;
    expect(seen('service_worker')).toMatchObject({ registered: true, error: null });
    expect(seen('read_backs')).toEqual({ canvas: true, canvas_round_trip: true, webgl: true, audio: true });
    expect(passed.ok).toBe(true);

    // A named GPU beside SwiftShader's limits, 2 GB beside a 4 GB heap, a window wider than the work area.
    const identity = await replacingIdentity();
    const broken = await suite.api.createProfile({
      name: 'Broken',
      identity: { ...identity, window: { ...identity.window, width: identity.screen.avail_width + 40 } },
    });
    const failed = await suite.api.checkProfileIdentity(broken.id);
    const mismatched = failed.surfaces.filter((surface) => surface.verdict === 'mismatch');
    expect(mismatched.map((surface) => surface.surface).sort()).toEqual([
      'memory_gb.heap',
      'webgl.parameters',
      'window',
    ]);
    expect(mismatched.find((surface) => surface.surface === 'window')?.seen.page).toMatchObject({
      right: 40,
    });
    expect(failed.ok).toBe(false);
  });
});
