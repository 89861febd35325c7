import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../lib/api/client';
import type { Cookie } from '../../lib/api/schemas/cookies';
import { apiError, JSON_HEADERS, requester, type ServiceHandle, startService } from './harness';

let service: ServiceHandle;
let api: ApiClient;
let send: ReturnType<typeof requester>;
let site: Server;
let host: string;
const inAnHour = Math.floor(Date.now() / 1000) + 3600;

beforeAll(async () => {
  // Answers the Cookie header it was sent, as the page's text.
  site = createServer((request, response) =>
    response.setHeader('Content-Type', 'text/plain').end(`cookies: ${request.headers.cookie ?? ''}`),
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(site.address() as AddressInfo).port}`;
  service = await startService({ env: { EGRESS_ALLOW: 'loopback' } });
  const key = await service.createKey('enterprise');
  api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  send = requester(service.baseUrl, key);
});

afterAll(async () => {
  await service?.close();
  if (service) await rm(service.dataDir, { recursive: true, force: true });
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

/** What a page of the local site is sent as its Cookie header, in a run on the profile. */
async function cookieHeaderSeen(profileId: string): Promise<string> {
  const queued = await api.runAutomation({
    profile_id: profileId,
    script: {
      steps: [
        { action: 'goto', url: `http://${host}/` },
        { action: 'extract', selector: 'body', name: 'seen' },
      ],
    },
  });
  const run = await api.getRun(queued.id, { wait: 25, until: 'finished' });
  expect(run.status, run.error ?? '').toBe('succeeded');
  return String(run.output.seen);
}

describe('a profile’s cookies', () => {
  it('imports JSON and cookies.txt into a stopped profile, exports both, and the next session sends them', async () => {
    const profile = await api.createProfile({ name: 'Cookie jar' });
    const imported = await api.putProfileCookies(profile.id, [
      { name: 'sid', value: 'abc 123', domain: '127.0.0.1', path: '/', expires: inAnHour, http_only: true },
    ]);
    expect(imported).toEqual({ imported: 1, session_cookies_not_kept: 0, replaced: false });
    const file =
      '# Netscape HTTP Cookie File\n\n' +
      `127.0.0.1\tFALSE\t/\tFALSE\t${inAnHour}\ttheme\tdark\n` +
      '127.0.0.1\tFALSE\t/\tFALSE\t0\tfleeting\tgone\n';
    // A cookie without an expiry would not outlive the browser started to import it: it is said, not kept.
    expect(await api.putProfileCookies(profile.id, file)).toEqual({
      imported: 1,
      session_cookies_not_kept: 1,
      replaced: false,
    });

    const jar = await api.getProfileCookies(profile.id);
    const byName = (name: string) => jar.find((cookie: Cookie) => cookie.name === name);
    expect(byName('sid')).toMatchObject({
      value: 'abc 123',
      domain: '127.0.0.1',
      path: '/',
      expires: inAnHour,
      http_only: true,
      secure: false,
    });
    expect(byName('theme')).toMatchObject({ value: 'dark', expires: inAnHour, http_only: false });
    expect(byName('fleeting')).toBeUndefined();

    const asText = await send('GET', `/v1/profiles/${profile.id}/cookies`, {
      headers: { Accept: 'text/plain' },
    });
    expect(asText.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await asText.text();
    expect(text).toContain(`#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t${inAnHour}\tsid\tabc 123\n`);
    expect(text).toContain(`127.0.0.1\tFALSE\t/\tFALSE\t${inAnHour}\ttheme\tdark\n`);
    // No session was left behind by reading or writing.
    expect((await api.getProfile(profile.id)).status).toBe('idle');

    const seen = await cookieHeaderSeen(profile.id);
    expect(seen).toContain('sid=abc 123');
    expect(seen).toContain('theme=dark');
  });

  it('reads and writes the cookies of a running session, and replaces them all when asked', async () => {
    const profile = await api.createProfile({ name: 'Running jar' });
    const session = await api.startSession({ profile_id: profile.id });
    try {
      // Running, a session cookie is taken: it lives as long as this browser.
      expect(
        await api.putProfileCookies(profile.id, [{ name: 'live', value: 'yes', domain: '127.0.0.1' }]),
      ).toEqual({ imported: 1, session_cookies_not_kept: 0, replaced: false });
      expect((await api.getProfileCookies(profile.id)).map((cookie: Cookie) => cookie.name)).toEqual([
        'live',
      ]);
      expect((await api.getSession(session.id)).status).toBe('running');
      const replaced = await api.putProfileCookies(
        profile.id,
        [{ name: 'only', value: '1', domain: '.127.0.0.1', secure: false }],
        true,
      );
      expect(replaced).toEqual({ imported: 1, session_cookies_not_kept: 0, replaced: true });
      expect((await api.getProfileCookies(profile.id)).map((cookie: Cookie) => cookie.name)).toEqual([
        'only',
      ]);
    } finally {
      await api.stopSession({ session_id: session.id });
    }
  });

  it('refuses a bad cookies.txt by its line, a cookie without a domain by its field, and another account’s profile', async () => {
    const profile = await api.createProfile({ name: 'Careful jar' });
    const badFile = await send('PUT', `/v1/profiles/${profile.id}/cookies`, {
      headers: { 'Content-Type': 'text/plain' },
      body: '# Netscape HTTP Cookie File\nexample.com\tTRUE\t/\n',
    });
    expect(badFile.status).toBe(422);
    expect(((await badFile.json()) as { detail: string }).detail).toBe(
      'Invalid body: Line 2 of the cookies.txt has 3 tab-separated fields where cookies.txt has 7 (domain, subdomains, path, secure, expiry, name, value).',
    );
    const noDomain = await send('PUT', `/v1/profiles/${profile.id}/cookies`, {
      headers: JSON_HEADERS,
      body: JSON.stringify([{ name: 'a', value: 'b' }]),
    });
    expect(noDomain.status).toBe(422);
    expect(((await noDomain.json()) as { errors: { path: string }[] }).errors[0]?.path).toBe('[0].domain');

    const stranger = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('free'),
      fetch,
    });
    expect((await apiError(stranger.getProfileCookies(profile.id))).status).toBe(404);
    expect((await apiError(stranger.putProfileCookies(profile.id, []))).status).toBe(404);
    expect((await api.getProfile(profile.id)).status).toBe('idle');
  });
});
