import { describe, expect, it } from 'vitest';
import type { ScopeReading } from '../../../server/identity/check-page';
import { compareSurfaces, exitLocation } from '../../../server/identity/compare';
import { engineOf, engineUserAgent } from '../../../server/identity/engine';
import { generateIdentity } from '../../../server/identity/generate';
import { presentIdentity } from '../../../server/identity/presented';

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
      window_overflow: { right: 0, bottom: 0 },
    },
    service_worker: {
      registered: true,
      ms: 120,
      answer: { memory_gb: 8, cpu_cores: 4, user_agent: engineUserAgent(identity.user_agent, engine) },
      error: null,
    },
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

const visit = (worker: ScopeReading) => ({
  readings: { page: faithful(), frame: faithful(), worker },
  headers: new Map([['/', { 'user-agent': faithful().user_agent }]]),
  product: 'Chrome/156.0.8078.108',
});

describe('the identity check’s verdicts', () => {
  it('calls a surface a mismatch when one scope shows another value, and the others a match', () => {
    const worker = { ...faithful(), cpu_cores: 2, platform: 'Win32' };
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
          readings: { page, frame: null, worker: null },
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
      ['read_backs', { read_backs: { ...detector.read_backs, canvas_round_trip: false } }],
      ['memory_gb.heap', { heap_limit_gb: 4.1, memory_gb: 1 }],
      ['client_hints.form_factors', { form_factors: [] }],
      ['locale.languages', { intl_locale: 'en-US' }],
      ['window', { window_overflow: { right: 10, bottom: 10 } }],
    ];
    for (const [surface, change] of broken) {
      const page = { ...faithful(), detector: { ...detector, ...change } };
      const claimed = surface === 'memory_gb.heap' ? withMemory(1) : presented;
      expect(verdictsOf(page, claimed)[surface], surface).toBe('mismatch');
    }
    const hung = {
      ...faithful(),
      service_worker: { registered: false, ms: 5000, answer: null, error: 'no answer' },
    };
    expect(verdictsOf(hung).service_worker).toBe('mismatch');
    // A GPU named beside SwiftShader's limits is contradicted; the host's own GPU is not a claim.
    const xe = { vendor: 'Google Inc. (Intel)', renderer: 'ANGLE (Intel, Mesa Intel(R) Xe Graphics)' };
    const namedGpu = presentIdentity({ ...presented.identity, webgl: xe }, {}, exit);
    expect(verdictsOf({ ...faithful(), webgl: xe }, namedGpu)['webgl.parameters']).toBe('mismatch');
    expect(verdictsOf(faithful())['webgl.parameters']).toBe('host');
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
