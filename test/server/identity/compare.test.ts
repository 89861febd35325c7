import { describe, expect, it } from 'vitest';
import { SiteView } from '../../../lib/api/schemas/identity-check';
import { compareSurfaces, exitLocation } from '../../../server/identity/compare';
import { engineOf, engineUserAgent } from '../../../server/identity/engine';
import { generateIdentity } from '../../../server/identity/generate';
import { withHostWarnings } from '../../../server/identity/host-warnings';
import { presentIdentity } from '../../../server/identity/presented';
import type { ScopeReading } from '../../../server/identity/scope-reading';
import { siteView } from '../../../server/identity/site-view';

const engine = engineOf('156.0.8078.108');
const exit = {
  ip: '2.16.1.1',
  country: 'DE',
  city: 'Frankfurt am Main',
  latitude: 50.11,
  longitude: 8.68,
  timezone: 'Europe/Berlin',
  languages: ['de-DE', 'de', 'en-US', 'en'],
};
const presented = presentIdentity(generateIdentity(), {}, exit);

/** What a scope shows when everything the profile claims is in force. */
function faithful(): ScopeReading {
  const { identity } = presented;
  return {
    user_agent: engineUserAgent(identity.user_agent, engine),
    app_version: '',
    platform: identity.navigator_platform,
    languages: exit.languages,
    cpu_cores: identity.hardware.cpu_cores,
    memory_gb: identity.hardware.memory_gb,
    timezone: exit.timezone,
    locale: exit.languages[0] as string,
    client_hints: {
      brands: engine.brands,
      full_version_list: engine.fullVersionList,
      ...identity.client_hints,
    },
    webgl: identity.webgl,
    looks_native: true,
    touch_points: identity.hardware.touch_points,
    screen: identity.screen,
    geolocation: { latitude: exit.latitude, longitude: exit.longitude },
    detector: {
      shown_replaced: [],
      wrong_receiver: [],
      injected_frames: [],
      cross_realm: [],
      read_backs: { canvas: true, canvas_round_trip: true, webgl: true, audio: true },
      webgl: {
        renderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device))',
        max_texture_size: 8192,
        extensions: 35,
      },
      heap_limit_gb: Math.min(identity.hardware.memory_gb / 4, 4) * 1.02,
      memory_gb: identity.hardware.memory_gb,
      form_factors: ['Desktop'],
      intl_locale: exit.languages[0] as string,
      languages: exit.languages,
      window: {
        screen_x: 0,
        screen_y: 0,
        outer_width: identity.window.width,
        outer_height: identity.window.height,
        work_area: {
          left: 0,
          top: 0,
          width: identity.screen.avail_width,
          height: identity.screen.avail_height,
        },
        overflow: { left: 0, top: 0, right: 0, bottom: 0 },
      },
    },
    probes: {
      hooked: [],
      round_trip: true,
      silence: true,
      sandboxed_frame: { cpu_cores: identity.hardware.cpu_cores, same_canvas: true },
      throughput: { cores: identity.hardware.cpu_cores, measured: identity.hardware.cpu_cores },
    },
    service_worker: { registered: true, ms: 120, answered: true, error: null },
  };
}

const HEADER_SURFACES = new Set([
  'client_hints.brands',
  'client_hints.full_version_list',
  'client_hints.platform',
  'client_hints.platform_version',
  'client_hints.architecture',
  'client_hints.bitness',
  'client_hints.mobile',
]);

function withMemory(memoryGb: number) {
  const { identity } = presented;
  return presentIdentity({ ...identity, hardware: { ...identity.hardware, memory_gb: memoryGb } }, {}, exit);
}

/** A worker's reading: no screen, window, heap, audio, touch points or position. */
function inWorker(): ScopeReading {
  const reading = faithful();
  const detector = reading.detector as NonNullable<ScopeReading['detector']>;
  return {
    ...reading,
    touch_points: null,
    screen: null,
    geolocation: null,
    service_worker: undefined,
    detector: {
      ...detector,
      heap_limit_gb: null,
      window: null,
      read_backs: { ...detector.read_backs, audio: null },
    },
    probes: { hooked: [], round_trip: true, silence: null, sandboxed_frame: null, throughput: null },
  };
}

const visit = (worker: ScopeReading) => ({
  readings: { page: faithful(), frame: faithful(), worker, service_worker: inWorker() },
  headers: new Map([['/', { 'user-agent': faithful().user_agent }]]),
  product: 'Chrome/156.0.8078.108',
});

describe('the identity check’s verdicts', () => {
  it('calls a surface a mismatch when one scope shows another value, and the others a match', () => {
    const worker = { ...faithful(), cpu_cores: presented.identity.hardware.cpu_cores + 1, platform: 'Win32' };
    const verdicts = Object.fromEntries(
      compareSurfaces(presented, engine, visit(worker)).map((surface) => [surface.surface, surface.verdict]),
    );
    expect(verdicts).toMatchObject({
      cpu_cores: 'mismatch',
      navigator_platform: 'mismatch',
      user_agent: 'match',
      timezone: 'match',
      locale: 'match',
    });
  });

  it('fails each surface a detector would catch, with what it saw, and passes a faithful page', () => {
    const verdictsOf = (page: ScopeReading, claimed = presented) =>
      Object.fromEntries(
        compareSurfaces(claimed, engine, {
          ...visit(faithful()),
          readings: { page, frame: null, worker: null, service_worker: null },
        }).map((surface) => [surface.surface, surface.verdict]),
      );
    // (The headers of this fabricated visit are not all there: only what the page itself read is compared.)
    const faithfulVerdicts = Object.entries(verdictsOf(faithful()));
    expect(
      faithfulVerdicts.filter(
        ([surface, verdict]) => verdict === 'mismatch' && !HEADER_SURFACES.has(surface),
      ),
    ).toEqual([]);
    const detector = faithful().detector as NonNullable<ScopeReading['detector']>;
    const broken: [string, Partial<NonNullable<ScopeReading['detector']>>][] = [
      ['script_hidden.to_string', { shown_replaced: ['Navigator.deviceMemory from the fresh frame: get…'] }],
      [
        'script_hidden.receiver_errors',
        { wrong_receiver: ['HTMLCanvasElement.toDataURL: TypeError: Value…'] },
      ],
      ['script_hidden.stack_frames', { injected_frames: ['Navigator.deviceMemory: at get deviceMemory'] }],
      [
        'script_hidden.cross_realm',
        { cross_realm: ['HTMLCanvasElement.toDataURL from the fresh frame: TypeError: Illegal invocation'] },
      ],
      ['read_backs', { read_backs: { ...detector.read_backs, canvas_round_trip: false } }],
      ['memory_gb.heap', { heap_limit_gb: 4.1, memory_gb: 1 }],
      ['client_hints.form_factors', { form_factors: [] }],
      ['locale.languages', { intl_locale: 'en-US' }],
      [
        'window',
        {
          window: {
            ...(detector.window as object),
            overflow: { left: 0, top: 0, right: 10, bottom: 0 },
          } as never,
        },
      ],
      [
        'window',
        {
          window: {
            ...(detector.window as object),
            overflow: { left: 8, top: 0, right: 0, bottom: 0 },
          } as never,
        },
      ],
    ];
    for (const [surface, change] of broken) {
      const page = { ...faithful(), detector: { ...detector, ...change } };
      const claimed = surface === 'memory_gb.heap' ? withMemory(1) : presented;
      expect(verdictsOf(page, claimed)[surface], surface).toBe('mismatch');
    }
    const probes = faithful().probes as NonNullable<ScopeReading['probes']>;
    const cores = presented.identity.hardware.cpu_cores;
    const brokenProbes: [string, Partial<NonNullable<ScopeReading['probes']>>][] = [
      ['script_hidden.intrinsics', { hooked: ['CanvasRenderingContext2D.drawImage', 'Object.assign'] }],
      ['read_backs.round_trip', { round_trip: false }],
      ['read_backs.silence', { silence: false }],
      ['realms.sandboxed_frame', { sandboxed_frame: { cpu_cores: cores + 2, same_canvas: true } }],
      ['realms.sandboxed_frame', { sandboxed_frame: { cpu_cores: cores, same_canvas: false } }],
      ['realms.sandboxed_frame', { sandboxed_frame: null }],
      ['cpu_cores.throughput', { throughput: { cores, measured: (cores - 2.5) / 2 } }],
    ];
    for (const [surface, change] of brokenProbes)
      expect(verdictsOf({ ...faithful(), probes: { ...probes, ...change } })[surface], surface).toBe(
        'mismatch',
      );
    // A busy host gives less than its cores: up to twice the throughput measured, and two more, passes.
    const busy = { ...faithful(), probes: { ...probes, throughput: { cores, measured: (cores - 2) / 2 } } };
    expect(verdictsOf(busy)['cpu_cores.throughput']).toBe('match');
    const hung = {
      ...faithful(),
      service_worker: { registered: false, ms: 5000, answered: false, error: 'no answer' },
    };
    expect(verdictsOf(hung).service_worker).toBe('mismatch');
    const slow = {
      ...faithful(),
      service_worker: { registered: true, ms: 9000, answered: true, error: null },
    };
    expect(verdictsOf(slow).service_worker).toBe('mismatch');
    // A GPU named beside SwiftShader's limits is contradicted; the host's own GPU is not a claim.
    const xe = { vendor: 'Google Inc. (Intel)', renderer: 'ANGLE (Intel, Mesa Intel(R) Xe Graphics)' };
    const namedGpu = presentIdentity({ ...presented.identity, webgl: xe }, {}, exit);
    expect(verdictsOf({ ...faithful(), webgl: xe }, namedGpu)['webgl.parameters']).toBe('mismatch');
    expect(verdictsOf(faithful())['webgl.parameters']).toBe('host');
  });

  it('fails a detector’s surface that any realm contradicts, with what that realm saw, and passes faithful realms', () => {
    const surfacesOf = (readings: Partial<Record<'frame' | 'worker' | 'service_worker', ScopeReading>>) =>
      compareSurfaces(presented, engine, {
        ...visit(inWorker()),
        readings: { ...visit(inWorker()).readings, ...readings },
      });
    const faithfulMismatches = surfacesOf({})
      .filter((surface) => surface.verdict === 'mismatch' && !HEADER_SURFACES.has(surface.surface))
      .map((surface) => surface.surface);
    expect(faithfulMismatches).toEqual([]);
    const shownReplaced = [
      'WorkerNavigator.hardwareConcurrency from the own realm: get hardwareConcurrency(){…',
    ];
    const contradictions: [string, Partial<NonNullable<ScopeReading['detector']>>][] = [
      ['script_hidden.to_string', { shown_replaced: shownReplaced }],
      ['script_hidden.receiver_errors', { wrong_receiver: ['Navigator.deviceMemory: no error'] }],
      [
        'script_hidden.stack_frames',
        { injected_frames: ['Navigator.deviceMemory: at get (<anonymous>:1:9)'] },
      ],
      ['read_backs', { read_backs: { canvas: false, canvas_round_trip: true, webgl: true, audio: null } }],
      ['client_hints.form_factors', { form_factors: [] }],
      ['locale.languages', { intl_locale: 'ja-JP' }],
    ];
    for (const scope of ['frame', 'worker', 'service_worker'] as const)
      for (const [name, change] of contradictions) {
        const reading = inWorker();
        const broken = {
          ...reading,
          detector: { ...(reading.detector as object), ...change },
        } as ScopeReading;
        const surface = surfacesOf({ [scope]: broken }).find((entry) => entry.surface === name);
        expect(surface?.verdict, `${name} in the ${scope}`).toBe('mismatch');
        expect(surface?.seen[scope], `${name} in the ${scope}`).toEqual(
          name === 'locale.languages'
            ? { intl_locale: 'ja-JP', first_language: exit.languages[0] }
            : Object.values(change)[0],
        );
      }
    // The frame's window reaching past the work area; a service worker showing another value than the page.
    const page = faithful();
    const pastLeft = {
      ...page,
      detector: {
        ...(page.detector as object),
        window: { ...(page.detector?.window as object), overflow: { left: 30, top: 0, right: 0, bottom: 0 } },
      },
    } as ScopeReading;
    expect(surfacesOf({ frame: pastLeft }).find((entry) => entry.surface === 'window')?.verdict).toBe(
      'mismatch',
    );
    const cores = surfacesOf({ service_worker: { ...inWorker(), cpu_cores: 3 } }).find(
      (entry) => entry.surface === 'cpu_cores',
    );
    expect(cores).toMatchObject({ verdict: 'mismatch', seen: { service_worker: 3 } });
  });

  it('says whether the time zone and languages belong to the proxy’s exit', () => {
    expect(exitLocation(presented, faithful())).toMatchObject({
      timezone_matches: true,
      languages_match: true,
    });
    expect(exitLocation(presented, { ...faithful(), timezone: 'UTC', languages: ['en-US'] })).toMatchObject({
      timezone_matches: false,
      languages_match: false,
    });
  });

  it('says what a site sees, each value a page wrote cut to the answer’s bound', () => {
    const page = faithful();
    expect(siteView(presented, page)).toEqual({
      ip: exit.ip,
      place: 'Frankfurt am Main, DE',
      timezone: exit.timezone,
      languages: exit.languages,
      user_agent: page.user_agent,
      screen: {
        width: presented.screen.width,
        height: presented.screen.height,
        pixel_ratio: presented.screen.pixel_ratio,
      },
      gpu: null,
    });
    const flooded = {
      ...page,
      user_agent: 'x'.repeat(5000),
      languages: Array.from({ length: 50 }, () => 'y'.repeat(100)),
      webgl: { vendor: 'v', renderer: 'z'.repeat(5000) },
    };
    const view = siteView(presentIdentity(presented.identity, {}, null), flooded);
    expect(SiteView.safeParse(view).success).toBe(true);
    expect([view.ip, view.place, view.user_agent.length, view.languages.length, view.gpu?.length]).toEqual([
      null,
      null,
      500,
      10,
      300,
    ]);
  });

  it('derives Chromium’s GREASE brand from the major version', () => {
    expect(engine.brands).toEqual([
      { brand: 'Not:A-Brand', version: '8' },
      { brand: 'Chromium', version: '156' },
    ]);
    expect(engineUserAgent('Mozilla/5.0 (X11; Linux x86_64) Chrome/147.0.0.0 Safari/537.36', engine)).toBe(
      'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36',
    );
  });
});

describe('what sites can tell of the host', () => {
  it('warns of a software GPU in a sentence, apart from agreement, and of nothing on a real one', () => {
    const swiftShader = {
      vendor: 'Google Inc. (Google)',
      renderer: 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero)))',
    };
    const surfaces = compareSurfaces(presented, engine, visit(inWorker()));
    const warned = withHostWarnings(surfaces, { ...faithful(), webgl: swiftShader });
    expect(warned.surfaces.find((surface) => surface.surface === 'webgl')?.verdict).toBe('warning');
    expect(warned.warnings).toEqual([
      {
        surface: 'webgl',
        detail: expect.stringMatching(
          /^This host has no GPU: sites can tell \(WebGL draws with ANGLE \(Google, Vulkan/,
        ),
      },
    ]);
    const gpu = {
      vendor: 'Google Inc. (NVIDIA)',
      renderer: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060/PCIe/SSE2, OpenGL 4.5)',
    };
    expect(withHostWarnings(surfaces, { ...faithful(), webgl: gpu })).toEqual({ surfaces, warnings: [] });
  });
});
