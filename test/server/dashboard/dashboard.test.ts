// The dashboard's security rules, each tried as the attack it stops: CSRF, cookie theft and fixation, keys and
// cookies used where they do not belong, password guessing, and account enumeration.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import type { Batch } from '../../../lib/api/schemas/automation';
import type { Session } from '../../../lib/api/schemas/sessions';
import { profileDataDir } from '../../../server/core/data-dir';
import { ATTEMPTS_PER_ADDRESS, ATTEMPTS_PER_EMAIL } from '../../../server/dashboard/attempts';
import { liveProcessesInGroup, processesWithUserDataDir } from '../../support/browser-fixtures';
import { dashboardClient } from '../../support/dashboard-client';
import { requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  service = await startServiceInProcess();
});
afterAll(() => service.close());

let accounts = 0;
/** A new account, signed up (and so signed in) through the endpoints as the pages do it. */
async function signedUp() {
  const client = dashboardClient(service.baseUrl);
  const email = `person${++accounts}@example.com`;
  const { status } = await client.json('POST', '/sign-up', { email, password: PASSWORD });
  expect(status).toBe(201);
  return { client, email };
}

describe('the sign-in cookie', () => {
  it('is HttpOnly, SameSite=Strict, scoped to /dashboard and expiring; Secure when served over https', async () => {
    const { client, email } = await signedUp();
    expect(client.lastSetCookie).toMatch(/; HttpOnly/);
    expect(client.lastSetCookie).toMatch(/; SameSite=Strict/);
    expect(client.lastSetCookie).toMatch(/; Path=\/dashboard(;|$)/);
    expect(client.lastSetCookie).toMatch(/; Expires=/);
    expect(client.lastSetCookie).not.toMatch(/; Secure/);

    const response = await client.call(
      'POST',
      '/sign-in',
      { email, password: PASSWORD },
      {
        'X-Forwarded-Proto': 'https',
        Origin: service.baseUrl.replace('http:', 'https:'),
      },
    );
    expect(response.status).toBe(200);
    expect(client.lastSetCookie).toMatch(/; Secure/);
  });

  it('is a new token at every sign-in, and the one the browser held before stops working (no fixation)', async () => {
    const { client, email } = await signedUp();
    const before = client.token;
    expect((await client.json('POST', '/sign-in', { email, password: PASSWORD })).status).toBe(200);
    expect(client.token).toBeDefined();
    expect(client.token).not.toBe(before);

    const stale = dashboardClient(service.baseUrl);
    stale.token = before;
    expect((await stale.json('GET', '/keys')).status).toBe(401);
    expect((await client.json('GET', '/keys')).status).toBe(200);
  });

  it('no longer signs in once signed out, even replayed', async () => {
    const { client } = await signedUp();
    const token = client.token;
    expect((await client.call('POST', '/sign-out')).status).toBe(204);
    const replay = dashboardClient(service.baseUrl);
    replay.token = token;
    expect((await replay.json('GET', '/keys')).status).toBe(401);
  });

  it('of other browsers stops working when the password changes', async () => {
    const { client, email } = await signedUp();
    const other = dashboardClient(service.baseUrl);
    expect((await other.json('POST', '/sign-in', { email, password: PASSWORD })).status).toBe(200);
    const changed = await client.json('PUT', '/password', {
      current_password: PASSWORD,
      new_password: 'an even better one',
    });
    expect(changed.status).toBe(204);
    expect((await other.json('GET', '/keys')).status).toBe(401);
    expect((await client.json('GET', '/keys')).status).toBe(200);
    const withOld = dashboardClient(service.baseUrl);
    expect((await withOld.json('POST', '/sign-in', { email, password: PASSWORD })).status).toBe(401);
  });
});

describe('cross-site requests (CSRF)', () => {
  it('refuses a state-changing request from another origin, without an origin, or from a form, and changes nothing', async () => {
    const { client } = await signedUp();
    const attempts: Record<string, string>[] = [
      { Origin: 'http://evil.example' },
      { Origin: 'null' },
      { Origin: service.baseUrl.replace('127.0.0.1', 'localhost') },
    ];
    for (const headers of attempts) {
      const response = await client.call('POST', '/keys', { name: 'planted' }, headers);
      expect(response.status).toBe(403);
      expect(((await response.json()) as { detail: string }).detail).toMatch(
        /did not come from the dashboard/,
      );
    }
    // A cross-site <form> posts url-encoded; fetch without Origin as some old clients would.
    const form = await fetch(`${service.baseUrl}/dashboard/api/keys`, {
      method: 'POST',
      headers: {
        Cookie: `pp_dashboard=${client.token}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'name=planted',
    });
    expect(form.status).toBe(403);
    for (const [method, path] of [
      ['DELETE', '/account'],
      ['PUT', '/password'],
      ['POST', '/sign-out'],
    ] as const) {
      expect((await client.call(method, path, {}, { Origin: 'http://evil.example' })).status).toBe(403);
    }
    const { body } = await client.json<{ data: unknown[] }>('GET', '/keys');
    expect(body.data).toEqual([]);
    expect((await client.json('GET', '/status')).body).toMatchObject({ account: { plan: 'free' } });
  });
});

describe('keys and cookies where they do not belong', () => {
  it('refuses an API key on the dashboard’s endpoints and the cookie on /v1', async () => {
    const { client } = await signedUp();
    const created = await client.json<{ key: string }>('POST', '/keys', { name: 'laptop' });
    expect(created.status).toBe(201);
    const key = created.body.key;

    const withKey = await fetch(`${service.baseUrl}/dashboard/api/keys`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(withKey.status).toBe(401);
    expect(JSON.stringify(await withKey.json())).not.toContain(key.slice(12));
    const keyAndCookie = await client.call('GET', '/keys', undefined, { Authorization: `Bearer ${key}` });
    expect(keyAndCookie.status).toBe(401);

    const withCookie = await fetch(`${service.baseUrl}/v1/profiles`, {
      headers: { Cookie: `pp_dashboard=${client.token}` },
    });
    expect(withCookie.status).toBe(401);
    expect((await requester(service.baseUrl, key)('GET', '/v1/profiles')).status).toBe(200);
  });

  it('answers 401 at once for a revoked key, and lists when a key was last used', async () => {
    const { client } = await signedUp();
    const { body: created } = await client.json<{ id: string; key: string }>('POST', '/keys', { name: 'ci' });
    const api = requester(service.baseUrl, created.key);
    expect((await api('GET', '/v1/profiles')).status).toBe(200);
    await expect
      .poll(
        async () =>
          (await client.json<{ data: { last_used_at: string | null }[] }>('GET', '/keys')).body.data[0],
      )
      .toMatchObject({ last_used_at: expect.any(String) });
    expect((await client.json('DELETE', `/keys/${created.id}`)).status).toBe(200);
    const refused = await api('GET', '/v1/profiles');
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/revoked/);
  });

  it('does not let one account revoke or see another’s keys', async () => {
    const a = await signedUp();
    const b = await signedUp();
    const { body: created } = await a.client.json<{ id: string; key: string }>('POST', '/keys', {
      name: 'a',
    });
    expect((await b.client.json('DELETE', `/keys/${created.id}`)).status).toBe(404);
    expect((await b.client.json<{ data: unknown[] }>('GET', '/keys')).body.data).toEqual([]);
    expect((await requester(service.baseUrl, created.key)('GET', '/v1/profiles')).status).toBe(200);
  });
});

describe('running sessions', () => {
  it('lists the account’s running sessions with their live view addresses, and its batches, and none of another account’s', async () => {
    const a = await signedUp();
    const b = await signedUp();
    const { body: created } = await a.client.json<{ key: string }>('POST', '/keys', { name: 'robot' });
    const api = createClient({ baseUrl: service.baseUrl, apiKey: created.key, fetch });
    const profile = await api.createProfile({ name: 'Watched' });
    const session = await api.startSession({ profile_id: profile.id, headless: true });
    try {
      const { status, body } = await a.client.json<{ data: Session[] }>('GET', '/sessions');
      expect(status).toBe(200);
      expect(body.data).toMatchObject([{ id: session.id, profile_name: 'Watched', status: 'running' }]);
      const [listed] = body.data;
      expect(listed?.live_view_url).toMatch(new RegExp(`^${service.baseUrl}/live/${session.id}/c\\.`));
      expect((await fetch(listed?.live_view_url as string)).status).toBe(200);
      expect(listed?.current_page).toMatchObject({ url: 'about:blank' });
      expect((await b.client.json<{ data: Session[] }>('GET', '/sessions')).body.data).toEqual([]);
      // The picture and Stop are the owner's: another account is answered 404 and changes nothing.
      const picture = await a.client.json<{ image: string }>('GET', `/sessions/${session.id}/thumbnail`);
      expect(picture.body.image).toMatch(/^data:image\/jpeg;base64,\/9j\//);
      expect((await b.client.json('GET', `/sessions/${session.id}/thumbnail`)).status).toBe(404);
      expect((await b.client.json('POST', `/sessions/${session.id}/stop`)).status).toBe(404);
      expect(await api.getSession(session.id)).toMatchObject({ status: 'running' });
      const stopped = await a.client.json<Session>('POST', `/sessions/${session.id}/stop`);
      expect(stopped.body).toMatchObject({ status: 'stopped', stop_reason: 'user' });
    } finally {
      await api.stopSession({ session_id: session.id });
    }
    expect((await a.client.json<{ data: Session[] }>('GET', '/sessions')).body.data).toEqual([]);

    // Every batch, newest first, each summed up; none of another account's.
    const batches: string[] = [];
    for (const name of ['First', 'Second']) {
      const { batch_id } = await api.bulkProfiles({
        select: { ids: [profile.id] },
        action: 'run',
        name,
        script: { steps: [{ action: 'goto', url: 'about:blank' }] },
      });
      batches.push(batch_id as string);
      await api.cancelBatch(batch_id as string).catch(() => undefined);
    }
    const listed = await a.client.json<{ data: Batch[]; next_cursor: string | null }>('GET', '/batches');
    expect(listed.body.data.map(({ id, name }) => [id, name])).toEqual([
      [batches[1], 'Second'],
      [batches[0], 'First'],
    ]);
    expect(listed.body.data[0]?.summary).toMatch(/of 1/);
    expect((await b.client.json<{ data: Batch[] }>('GET', '/batches')).body.data).toEqual([]);
  });
});

describe('bad input', () => {
  it('answers each mistake with a sentence about its field', async () => {
    const client = dashboardClient(service.baseUrl);
    const bad = await client.json<{ errors: { path: string; message: string }[] }>('POST', '/sign-up', {
      email: 'not-an-email',
      password: 'short',
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { path: 'email', message: 'Enter an email address such as name@example.com.' },
      { path: 'password', message: 'Use at least 10 characters for the password.' },
    ]);
    const { email } = await signedUp();
    const again = await client.json<{ detail: string }>('POST', '/sign-up', {
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(again).toMatchObject({
      status: 409,
      body: { detail: 'This email already has an account: sign in instead.' },
    });
  });
});

describe('password guessing and account enumeration', () => {
  // On a service of their own: every attempt from this address counts toward its limit.
  let guarded: TestService;
  // Attempts counted toward the limits: every one that was not refused at once (429) nor succeeded at signing in.
  let attemptsCounted = 0;
  const attempt = async (path: '/sign-in' | '/sign-up', email: string, password: string) => {
    // From a new client each time: the limits hold whoever asks.
    const response = await dashboardClient(guarded.baseUrl).call('POST', path, { email, password });
    if (response.status !== 429 && response.status !== 200) attemptsCounted++;
    return response;
  };
  beforeAll(async () => {
    guarded = await startServiceInProcess();
  });
  afterAll(() => guarded.close());

  it('answers a wrong password and an unknown email the same way, and limits attempts per email alike', async () => {
    const email = 'known@example.com';
    expect((await attempt('/sign-up', email, PASSWORD)).status).toBe(201);
    const answers = async (address: string) => {
      const seen: string[] = [];
      for (let tries = 0; tries <= ATTEMPTS_PER_EMAIL; tries++) {
        const response = await attempt('/sign-in', address, 'wrong password');
        seen.push(`${response.status} ${await response.text()}`);
      }
      return seen;
    };
    const known = await answers(email);
    // The sign-up counted as the first attempt for this email.
    expect(known.slice(0, ATTEMPTS_PER_EMAIL - 1)).toEqual(new Array(ATTEMPTS_PER_EMAIL - 1).fill(known[0]));
    expect(known[0]).toMatch(/^401 .*The email or the password is not right/);
    expect(
      known.slice(ATTEMPTS_PER_EMAIL - 1).every((answer) => /^429 .*Too many attempts/.test(answer)),
    ).toBe(true);
    // Even the right password waits now.
    expect((await attempt('/sign-in', email, PASSWORD)).status).toBe(429);

    const unknown = await answers('nobody@example.com');
    expect(unknown.slice(0, ATTEMPTS_PER_EMAIL)).toEqual(new Array(ATTEMPTS_PER_EMAIL).fill(known[0]));
    expect(unknown.at(-1)).toBe(known.at(-1));
  });

  it('limits attempts per address whatever the email', async () => {
    const statuses: number[] = [];
    while (attemptsCounted < ATTEMPTS_PER_ADDRESS) {
      statuses.push(
        (await attempt('/sign-in', `guess${attemptsCounted}@example.com`, 'wrong password')).status,
      );
    }
    expect(statuses.every((status) => status === 401)).toBe(true);
    expect((await attempt('/sign-in', 'one-more@example.com', 'wrong password')).status).toBe(429);
    expect((await attempt('/sign-up', 'fresh@example.com', PASSWORD)).status).toBe(429);
  });
});

describe('deleting an account', () => {
  it('stops its sessions’ browsers, removes its profiles’ data and ends its keys', async () => {
    const { client } = await signedUp();
    const { body: created } = await client.json<{ key: string }>('POST', '/keys', { name: 'robot' });
    const api = createClient({ baseUrl: service.baseUrl, apiKey: created.key, fetch });
    const profile = await api.createProfile({ name: 'Shop' });
    await api.startSession({ profile_id: profile.id, headless: true });
    const folder = profileDataDir(service.dataDir, profile.id);
    // The browser leads a process group of its own, with its helpers.
    const [browser] = processesWithUserDataDir(folder).filter(
      (pid) => !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type='),
    );
    if (browser === undefined) throw new Error('the session has no browser');
    expect(liveProcessesInGroup(browser)).not.toEqual([]);

    const deleted = await client.call('DELETE', '/account', { password: PASSWORD });
    expect(deleted.status).toBe(204);
    expect(liveProcessesInGroup(browser)).toEqual([]);
    expect(existsSync(folder)).toBe(false);
    expect((await requester(service.baseUrl, created.key)('GET', '/v1/profiles')).status).toBe(401);
    expect((await client.json('GET', '/keys')).status).toBe(401);
    const listed = JSON.parse((await service.cli(['keys', 'list', '--json'])).stdout) as { prefix: string }[];
    expect(listed.map((key) => key.prefix)).not.toContain(created.key.slice(0, 12));
  });
});

describe('the pages', () => {
  it('are answered with a strict Content-Security-Policy, and / leads to them', async () => {
    const page = await fetch(`${service.baseUrl}/dashboard`);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("form-action 'self'");
    const root = await fetch(`${service.baseUrl}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/dashboard');
  });
});

describe('the operator', () => {
  it('moves an account to another plan, by email, and the dashboard and /v1 see it at once', async () => {
    const { client, email } = await signedUp();
    const { body: created } = await client.json<{ key: string }>('POST', '/keys', { name: 'x' });
    const result = await service.cli(['keys', 'set-plan', email, '--plan', 'premium']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/now on the premium plan/);
    expect((await client.json('GET', '/usage')).body).toMatchObject({ plan: 'premium', hourly_limit: 1000 });
    const account = await requester(service.baseUrl, created.key)('GET', '/v1/account');
    expect(await account.json()).toMatchObject({ plan: 'premium' });
    const unknown = await service.cli(['keys', 'set-plan', 'nobody@example.com', '--plan', 'free']);
    expect(unknown.code).toBe(1);
  });

  it('can close sign-up: the page is told, and signing up is refused with a sentence', async () => {
    const closed = await startServiceInProcess({ env: { SIGNUP: 'closed' } });
    try {
      const client = dashboardClient(closed.baseUrl);
      expect((await client.json('GET', '/status')).body).toEqual({ signup: 'closed', account: null });
      const refused = await client.json('POST', '/sign-up', { email: 'a@example.com', password: PASSWORD });
      expect(refused).toMatchObject({
        status: 403,
        body: { detail: 'Sign-up is closed on this service: ask its operator for an account.' },
      });
    } finally {
      await closed.close();
    }
  }, 120_000); // It starts a service of its own: longer than a test's default on a busy machine.
});
