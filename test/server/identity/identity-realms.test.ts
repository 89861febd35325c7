import { type Browser, chromium, type Page } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import type { Identity } from '../../../lib/api/schemas/identity';
import { type DetectorReading, readDetector } from '../../../server/identity/detector-page';
import {
  registerServiceWorker,
  type ServiceWorkerReading,
} from '../../../server/identity/service-worker-page';
import { launchBrowser } from '../../../server/sessions/launch-browser';
import { CHROMIUM, LOOPBACK_ALLOWED, makeTempDir, relayDevtools } from '../../support/browser-fixtures';
import { serviceSuite } from '../../support/service-suite';

/**
 * Breakage no API request can ask for, for the check to catch: a window wider than the work area; a naive
 * replacement (visible source, no receiver check) of `deviceMemory` in frames and workers only; a service worker
 * whose start is held past the check's bound.
 */
const breakage = vi.hoisted(() => ({
  window: false,
  realms: false,
  slowServiceWorker: false,
  readOuts: false,
}));
const NAIVE_MEMORY = `Object.defineProperty((self.WorkerNavigator ?? self.Navigator).prototype, 'deviceMemory', { get() { return 0.5; }, configurable: true });`;
vi.mock('../../../server/identity/presented', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../server/identity/presented')>();
  return {
    ...real,
    presentIdentity: (...args: Parameters<typeof real.presentIdentity>) => {
      const presented = real.presentIdentity(...args);
      if (!breakage.window) return presented;
      return { ...presented, window: { ...presented.window, width: presented.screen.avail_width + 40 } };
    },
  };
});
vi.mock('../../../server/identity/injected-script', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../server/identity/injected-script')>();
  return {
    ...real,
    injectedScript: (values: Parameters<typeof real.injectedScript>[0]) => {
      const script = real.injectedScript(values);
      const broken = [script];
      if (breakage.realms)
        broken.push(`if (typeof window !== 'object' || window !== window.top) { ${NAIVE_MEMORY} }`);
      // Read-outs that call what a page can replace and make silence audible; a sandboxed frame the identity misses.
      if (breakage.readOuts)
        broken.push(
          `if (typeof window === 'object') { const own = HTMLCanvasElement.prototype.toDataURL; HTMLCanvasElement.prototype.toDataURL = function (...args) { const copy = document.createElement('canvas'); copy.width = this.width; copy.height = this.height; copy.getContext('2d').drawImage(this, 0, 0); return own.apply(copy, args); }; const data = AudioBuffer.prototype.getChannelData; AudioBuffer.prototype.getChannelData = function (...args) { const samples = data.apply(this, args); samples[0] = 1e-6; return samples; }; if (origin === 'null') Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 1 }); }`,
        );
      if (breakage.slowServiceWorker)
        broken.push(
          `if (typeof ServiceWorkerGlobalScope === 'function') { const until = Date.now() + 7000; while (Date.now() < until); }`,
        );
      return broken.join('\n');
    },
  };
});

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
    // The same registration in a browser with no identity, in this run (the machine is shared and noisy).
    const bareRegistration = async () => {
      const scratch = makeTempDir('pp-identity-sw-');
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
        const reading = await register(client);
        await client.close();
        await relay.close();
        return reading;
      } finally {
        await bare.stop();
        scratch.remove();
      }
    };
    let reading = await withSession(undefined, register);
    let baseline = await bareRegistration();
    expect(baseline.registered).toBe(true);
    expect(reading.error).toBeNull();
    expect(reading.registered).toBe(true);
    // A burst on the machine slows one round, not two: past the bound, each is taken again and the quicker kept.
    const bound = () => Math.max(2000, baseline.ms * 3);
    if (reading.ms >= bound()) {
      const again = await withSession(undefined, register);
      const bareAgain = await bareRegistration();
      console.info(
        `service worker: ${reading.ms} then ${again.ms} ms; bare ${baseline.ms} then ${bareAgain.ms} ms`,
      );
      if (again.registered && again.ms < reading.ms) reading = again;
      if (bareAgain.registered && bareAgain.ms < baseline.ms) baseline = bareAgain;
    }
    expect(reading.ms).toBeLessThan(bound());
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
      for (const past of Object.values(reading.window?.overflow ?? {})) expect(past).toBeLessThanOrEqual(1);
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
    // A fresh frame's replaced read-outs work on the page's canvas as the browser's do (they threw Illegal
    // invocation), and answer what the page's own do.
    expect(reading.cross_realm).toEqual([]);
  });
});

describe('the identity check', () => {
  const mismatchesOf = (check: { surfaces: { surface: string; verdict: string }[] }) =>
    check.surfaces.filter((surface) => surface.verdict === 'mismatch');
  /** The check of a profile with one breakage in force, and the names of the surfaces it failed. */
  async function checkBroken(kind: keyof typeof breakage, profileId: string) {
    breakage[kind] = true;
    const check = await suite.api.checkProfileIdentity(profileId).finally(() => {
      breakage[kind] = false;
    });
    expect(check.ok).toBe(false);
    return {
      check,
      failed: mismatchesOf(check)
        .map((surface) => surface.surface)
        .sort(),
    };
  }
  const surfaceOf = (check: Awaited<ReturnType<typeof suite.api.checkProfileIdentity>>, name: string) =>
    check.surfaces.find((surface) => surface.surface === name);

  it('passes real default profiles in page, frame, worker and service worker, and says what a site sees', async () => {
    for (const name of ['Real', 'Real too']) {
      const real = await suite.api.createProfile({ name });
      const passed = await suite.api.checkProfileIdentity(real.id);
      expect(mismatchesOf(passed).map((surface) => `${surface.surface}: ${JSON.stringify(surface)}`)).toEqual(
        [],
      );
      expect(passed.ok).toBe(true);
      const registration = surfaceOf(passed, 'service_worker')?.seen.page as { ms: number };
      expect(registration).toMatchObject({ registered: true, answered: true, error: null });
      expect(registration.ms).toBeLessThan(5000);
      for (const scope of ['page', 'frame', 'worker', 'service_worker'] as const) {
        expect(surfaceOf(passed, 'script_hidden.to_string')?.seen[scope], scope).toEqual([]);
        expect(surfaceOf(passed, 'user_agent')?.seen[scope], scope).toBe(passed.site_view.user_agent);
      }
      expect(surfaceOf(passed, 'read_backs')?.seen.page).toEqual({
        canvas: true,
        canvas_round_trip: true,
        webgl: true,
        audio: true,
      });
      expect(surfaceOf(passed, 'window')?.seen.frame).toMatchObject({ overflow: { left: 0, top: 0 } });
      const { screen } = real.identity as Identity;
      expect(passed.site_view).toMatchObject({
        ip: null,
        place: null,
        screen: { width: screen.width, height: screen.height, pixel_ratio: screen.pixel_ratio },
      });
      expect(passed.site_view.user_agent).toMatch(/X11; Linux x86_64/);
      expect(passed.site_view.gpu).toMatch(/SwiftShader|ANGLE/);
      expect(passed.site_view.languages.length).toBeGreaterThan(0);
      // This host draws WebGL in software: a warning in a sentence, not agreement.
      expect(surfaceOf(passed, 'webgl')?.verdict).toBe('warning');
      expect(passed.warnings).toEqual([
        { surface: 'webgl', detail: expect.stringMatching(/^This host has no GPU: sites can tell/) },
      ]);
      for (const surface of ['realms.sandboxed_frame', 'read_backs.silence', 'read_backs.round_trip'])
        expect(surfaceOf(passed, surface)?.verdict, surface).toBe('match');
    }
  });

  it('fails each contradiction a detector would see, in the realm it shows in, with what was seen', async () => {
    // A named GPU beside SwiftShader's limits, 2 GB beside a 4 GB heap, a window wider than the work area.
    const identity = await replacingIdentity();
    const broken = await suite.api.createProfile({ name: 'Broken', identity });
    const { check: failed, failed: wide } = await checkBroken('window', broken.id);
    expect(wide).toEqual(['memory_gb.heap', 'webgl.parameters', 'window']);
    const window = surfaceOf(failed, 'window');
    // 40 px wider than the work area; at some pixel ratios the browser rounds the window to a pixel more.
    for (const realm of ['page', 'frame'] as const) {
      const right = (window?.seen[realm] as { overflow: { right: number } } | undefined)?.overflow.right;
      expect(right, realm).toBeGreaterThanOrEqual(40);
      expect(right, realm).toBeLessThanOrEqual(41);
    }

    // A replacement a fresh realm's toString and a wrong receiver give away, in frames and workers only.
    const real = await suite.api.createProfile({ name: 'Naive realms' });
    const { check: naive, failed: naiveFailed } = await checkBroken('realms', real.id);
    expect(naiveFailed).toEqual([
      'memory_gb',
      'script_hidden',
      'script_hidden.receiver_errors',
      'script_hidden.to_string',
    ]);
    const shown = surfaceOf(naive, 'script_hidden.to_string')?.seen;
    expect(shown?.page).toEqual([]);
    for (const scope of ['frame', 'worker', 'service_worker'] as const) {
      expect(shown?.[scope], scope).toEqual(
        expect.arrayContaining([expect.stringMatching(/^Navigator\.deviceMemory from the .*return 0\.5/)]),
      );
      expect(surfaceOf(naive, 'script_hidden.receiver_errors')?.seen[scope], scope).toEqual([
        'Navigator.deviceMemory: no error',
      ]);
      expect(surfaceOf(naive, 'memory_gb')?.seen[scope], scope).toBe(0.5);
    }

    // A service worker that does not answer within the bound (the naive check left none in the profile: this one
    // registers anew).
    const { check: slow, failed: slowFailed } = await checkBroken('slowServiceWorker', real.id);
    expect(slowFailed).toEqual(['service_worker']);

    // More cores than the host gives, read-outs a spy sees, audible silence, a sandboxed frame with the host's cores.
    const cores = await suite.api.createProfile({
      name: 'Many cores',
      identity: {
        ...(real.identity as Identity),
        hardware: { ...(real.identity as Identity).hardware, cpu_cores: 24 },
      },
    });
    const { check: caught, failed: caughtFailed } = await checkBroken('readOuts', cores.id);
    console.info(JSON.stringify(caughtFailed));
    expect(caughtFailed).toEqual(
      expect.arrayContaining([
        'cpu_cores.throughput',
        'read_backs.silence',
        'realms.sandboxed_frame',
        'script_hidden.intrinsics',
      ]),
    );
    expect(surfaceOf(caught, 'script_hidden.intrinsics')?.seen.page).toEqual(
      expect.arrayContaining([
        'Document.createElement',
        'CanvasRenderingContext2D.drawImage',
        'HTMLCanvasElement.width',
      ]),
    );
    expect(surfaceOf(caught, 'realms.sandboxed_frame')?.seen.page).toMatchObject({ cpu_cores: 1 });
    expect(surfaceOf(caught, 'cpu_cores.throughput')?.seen.page).toMatchObject({
      measured: expect.toSatisfy((measured: number) => measured < 11),
    });
    expect(surfaceOf(slow, 'service_worker')?.seen.page).toMatchObject({
      registered: false,
      answered: false,
    });
  });
});
