import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { Cookie } from '../../../lib/api/schemas/cookies';
import { apiError, JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
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
  service = await startServiceInProcess({ env: { EGRESS_ALLOW: 'loopback' } });
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
    // No session was left behind by reading or writing, and each says why it stopped. Reading or writing
    // cookies is not a use of the profile: its Last used stays as it was.
    expect(await api.getProfile(profile.id)).toMatchObject({ status: 'idle', last_used_at: null });
    const { data: opened } = await api.listSessions({ limit: 100 });
    const ours = opened.filter((session) => session.profile_id === profile.id);
    expect(ours.map((session) => session.stop_reason)).toEqual(ours.map(() => 'cookies'));
    expect(ours.length).toBeGreaterThanOrEqual(4);

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
      'Line 2 is not a cookie: a cookies.txt line has 7 fields separated by tabs (domain, subdomains, path, secure, expiry, name, value); this one has 3.',
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

  /** What a PUT of `body` answers: its status and detail, and the sessions the profile has had since. */
  async function putRefused(profileId: string, body: string, contentType: string) {
    const response = await send('PUT', `/v1/profiles/${profileId}/cookies`, {
      headers: { 'Content-Type': contentType },
      body,
    });
    const problem = (await response.json()) as { detail: string };
    const sessions = (await api.listSessions({ limit: 100 })).data.filter(
      (session) => session.profile_id === profileId,
    );
    return { status: response.status, detail: problem.detail, sessions: sessions.length };
  }

  const line = (domain: string, name: string, value: string) =>
    `${domain}\tFALSE\t/\tFALSE\t${inAnHour}\t${name}\t${value}\n`;
  const cookieFile = (third: string) =>
    `# Netscape HTTP Cookie File\n${line('127.0.0.1', 'ok', 'fine')}${third}`;

  it.each([
    [
      'a CR in a value',
      cookieFile(line('127.0.0.1', 'sid', 'a\rb')),
      'Line 3: the value of the cookie "sid" must not contain a carriage return (CR).',
    ],
    [
      'a VT in a value',
      cookieFile(line('127.0.0.1', 'sid', 'a\vb')),
      'Line 3: the value of the cookie "sid" must not contain a vertical tab (VT).',
    ],
    [
      'a tab in a value',
      cookieFile(line('127.0.0.1', 'sid', 'a\tb')),
      'Line 3: the value of the cookie "sid" must not contain a tab.',
    ],
    [
      'a “;” in a name',
      cookieFile(line('127.0.0.1', 'a;b', 'v')),
      'Line 3: the name of the cookie "a;b" must not contain “;”.',
    ],
    [
      'a line of one field',
      cookieFile('just some text\n'),
      'Line 3 is not a cookie: a cookies.txt line has 7 fields separated by tabs (domain, subdomains, path, secure, expiry, name, value); this one has 1.',
    ],
    [
      'a bare top-level domain',
      cookieFile(line('.com', 'sid', 'v')),
      'Line 3: the domain of the cookie "sid" must name a site: with its leading dot, “.com” would match every site under com.',
    ],
    [
      'a domain that is a URL',
      cookieFile(line('a@127.0.0.1:1/x?', 'sid', 'v')),
      'Line 3: the domain of the cookie "sid" must be a host name such as example.com or .example.com, or an IP address, with nothing else.',
    ],
  ])('refuses a cookies.txt with %s by its line, before any browser starts', async (_, file, detail) => {
    const profile = await api.createProfile({ name: 'Strict jar' });
    expect(await putRefused(profile.id, file, 'text/plain')).toEqual({ status: 422, detail, sessions: 0 });
  });

  it.each([
    [{ name: 'sid', value: 'a\nb', domain: '127.0.0.1' }, '[1].value: must not contain a line break (LF)'],
    [{ name: 'a=b', value: 'v', domain: '127.0.0.1' }, '[1].name: must not contain “=”'],
    [{ name: 'sid', value: ' padded', domain: '127.0.0.1' }, '[1].value: must not begin or end with a space'],
    [
      { name: 'sid', value: 'x'.repeat(4094), domain: '127.0.0.1' },
      '[1].value: must be at most 4096 bytes together with the name (they are 4097)',
    ],
    [{ name: 'sid', value: 'v', domain: '127.0.0.1', path: 'x' }, '[1].path: must begin with /'],
    [
      { name: '__Host-sid', value: 'v', domain: '.example.com', secure: true },
      '[1].domain: must not begin with a dot for a cookie named __Host-…',
    ],
    [
      { name: 'sid', value: 'v', domain: '.com' },
      '[1].domain: must name a site: with its leading dot, “.com” would match every site under com',
    ],
    [
      { name: 'sid', value: 'v', domain: 'a@127.0.0.1:1/x?' },
      '[1].domain: must be a host name such as example.com or .example.com, or an IP address, with nothing else',
    ],
    [{ name: 'sid', value: 'v', domain: '256.1.1.1' }, '[1].domain: is not a valid IP address'],
    [
      { name: 'sid', value: 'v', domain: '127.0.0.1', same_site: 'None' },
      '[1].secure: must be true for a cookie with same_site None',
    ],
  ])('refuses the JSON cookie %j by its index and field, before any browser starts', async (bad, detail) => {
    const profile = await api.createProfile({ name: 'Strict jar' });
    const body = JSON.stringify([{ name: 'ok', value: 'fine', domain: '.example.com' }, bad]);
    expect(await putRefused(profile.id, body, 'application/json')).toEqual({
      status: 422,
      detail: `Invalid body: ${detail}`,
      sessions: 0,
    });
  });
});
