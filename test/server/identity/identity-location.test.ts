import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReadings } from '../../../server/identity/check-page';
import { startAuthenticatingProxy } from '../../support/browser-fixtures';
import { serviceSuite } from '../../support/service-suite';

/** A public address DB-IP places in Frankfurt am Main: what the local "what is my IP" page answers. */
const EXIT_IP = '2.16.1.1';

let proxy: Awaited<ReturnType<typeof startAuthenticatingProxy>>;
let whatIsMyIp: Server;

beforeAll(async () => {
  whatIsMyIp = createServer((_request, response) => response.end(EXIT_IP));
  await new Promise<void>((resolve) => whatIsMyIp.listen(0, '127.0.0.1', resolve));
  proxy = await startAuthenticatingProxy('geo', 'pass');
});

afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => whatIsMyIp?.close(resolve));
});

const suite = serviceSuite({
  plan: 'enterprise',
  env: () => ({
    EGRESS_ALLOW: 'loopback',
    PROXY_CHECK_URL: `http://127.0.0.1:${(whatIsMyIp.address() as AddressInfo).port}/ip`,
  }),
  checkPages: '127.0.0.1',
});

async function readings(cdpUrl: string): Promise<CheckReadings> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    const page = await (browser.contexts()[0] ?? (await browser.newContext())).newPage();
    await page.goto(`${suite.pages.origin}/`);
    return (await page.evaluate('window.identitySurfaces')) as CheckReadings;
  } finally {
    await browser.close();
  }
}

describe('location', () => {
  it('follows the proxy’s exit IP when auto, in page, frame and worker; explicit values win', async () => {
    const proxyUrl = `http://geo:pass@127.0.0.1:${proxy.port}`;
    const saved = await suite.api.createProxy({
      name: 'Frankfurt',
      scheme: 'http',
      host: '127.0.0.1',
      port: proxy.port,
      username: 'geo',
      password: 'pass',
    });
    expect(await suite.api.checkProxy(saved.id)).toMatchObject({
      ok: true,
      ip: EXIT_IP,
      country: 'DE',
      city: 'Frankfurt am Main',
      timezone: 'Europe/Berlin',
    });

    const profile = await suite.api.createProfile({ name: 'Auto', proxy: proxyUrl });
    expect(profile.identity?.location).toEqual({
      timezone: 'auto',
      languages: 'auto',
      locale: 'auto',
      geolocation: 'auto',
    });
    const session = await suite.api.startSession({ profile_id: profile.id, headless: true });
    const seen = await readings(session.cdp_url as string);
    for (const scope of ['page', 'frame', 'worker'] as const) {
      expect(seen[scope]?.timezone, scope).toBe('Europe/Berlin');
      expect(seen[scope]?.languages, scope).toEqual(['de-DE', 'de', 'en-US', 'en']);
      expect(seen[scope]?.locale, scope).toBe('de-DE');
    }
    expect(seen.page.geolocation?.latitude).toBeCloseTo(50.11, 1);
    expect(seen.page.geolocation?.longitude).toBeCloseTo(8.68, 1);
    expect(suite.pages.headersOf('/')?.['accept-language']).toMatch(/^de-DE,de;q=0\.9,en-US;q=0\.8/);
    await suite.api.stopSession({ session_id: session.id });

    // The check starts a session of its own, reads the service's own page (served from inside the browser),
    // and stops it again.
    const check = await suite.api.checkProfileIdentity(profile.id);
    const mismatches = check.surfaces.filter((surface) => surface.verdict === 'mismatch');
    expect(mismatches).toEqual([]);
    expect(check).toMatchObject({
      profile_id: profile.id,
      temporary_session: true,
      ok: true,
      exit: {
        ip: EXIT_IP,
        country: 'DE',
        city: 'Frankfurt am Main',
        timezone: 'Europe/Berlin',
        timezone_matches: true,
        languages_match: true,
      },
    });
    expect(check.surfaces.find((surface) => surface.surface === 'timezone')).toMatchObject({
      claimed: 'Europe/Berlin',
      seen: {
        page: 'Europe/Berlin',
        frame: 'Europe/Berlin',
        worker: 'Europe/Berlin',
        service_worker: 'Europe/Berlin',
      },
      verdict: 'match',
    });
    expect(check.site_view).toMatchObject({
      ip: EXIT_IP,
      place: 'Frankfurt am Main, DE',
      timezone: 'Europe/Berlin',
      languages: ['de-DE', 'de', 'en-US', 'en'],
    });
    expect(await suite.api.getSession(check.session_id)).toMatchObject({ status: 'stopped' });

    // Explicit values win over the exit's.
    const identity = profile.identity;
    if (!identity) throw new Error('the profile has no identity');
    await suite.api.updateProfile(profile.id, {
      identity: {
        ...identity,
        location: { ...identity.location, timezone: 'Asia/Tokyo', languages: ['ja-JP'] },
      },
    });
    const explicit = await suite.api.startSession({ profile_id: profile.id, headless: true });
    const fixed = await readings(explicit.cdp_url as string);
    expect([fixed.page.timezone, fixed.worker?.timezone]).toEqual(['Asia/Tokyo', 'Asia/Tokyo']);
    expect(fixed.page.languages).toEqual(['ja-JP']);
    expect([fixed.page.locale, fixed.worker?.locale]).toEqual(['ja-JP', 'ja-JP']);
    await suite.api.stopSession({ session_id: explicit.id });

    // An explicit language wins over the identity's, and Intl follows it.
    await suite.api.updateProfile(profile.id, { fingerprint: { language: 'fr-FR' } });
    const french = await suite.api.startSession({ profile_id: profile.id, headless: true });
    const inFrench = await readings(french.cdp_url as string);
    expect(inFrench.page.languages[0]).toBe('fr-FR');
    expect([inFrench.page.locale, inFrench.frame?.locale, inFrench.worker?.locale]).toEqual([
      'fr-FR',
      'fr-FR',
      'fr-FR',
    ]);
    await suite.api.stopSession({ session_id: french.id });
  });

  it('stays the host’s without a proxy', async () => {
    const profile = await suite.api.createProfile({ name: 'Home' });
    const session = await suite.api.startSession({ profile_id: profile.id, headless: true });
    const seen = await readings(session.cdp_url as string);
    expect(seen.page.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(seen.page.geolocation).toBeNull();
    await suite.api.stopSession({ session_id: session.id });
  });
});
