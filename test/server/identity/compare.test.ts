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
    locale: 'en-US',
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
  };
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
      locale: 'host',
    });
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
