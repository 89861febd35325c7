/**
 * One-time dashboard sign-in links (`keys sign-in-link`, which npm start prints for its local account): an account
 * made on the command line, with no email or password, signs in once and sees its own sessions and usage (counted
 * though unlimited), and sets a first password with an email; a link
 * works once, signs in no other account (its expiry: dashboard-expiry.test.ts), and its token is never in the service's logs.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { TALLY_FLUSH_MS } from '../../../server/accounts/usage-tally';
import { ATTEMPTS_PER_ADDRESS } from '../../../server/dashboard/attempts';
import { dashboardClient } from '../../support/dashboard-client';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;

beforeAll(async () => {
  service = await startServiceInProcess();
});
afterAll(() => service.close());

/** A link for the account a key belongs to, named by the key's prefix, as npm start asks for it. */
async function linkFor(key: string): Promise<{ url: URL; token: string }> {
  const made = await service.cli(['keys', 'sign-in-link', key.slice(0, 12), '--url', service.baseUrl]);
  expect(made.code).toBe(0);
  expect(made.stderr).toMatch(/signs in once, until \d{4}-/);
  const url = new URL(made.stdout.trim());
  const token = /^#\/sign-in\/(.+)$/.exec(url.hash)?.[1] ?? '';
  return { url, token };
}

describe('a one-time sign-in link', () => {
  it('signs a command-line account in to its dashboard, where its own usage shows', async () => {
    const key = await service.createKey('enterprise', 'local (npm start)');
    const { url, token } = await linkFor(key);
    expect(url.origin).toBe(service.baseUrl);
    expect(url.pathname).toBe('/dashboard/');
    expect(token).toMatch(/^[\w-]{43}$/);

    const browser = dashboardClient(service.baseUrl);
    expect((await browser.json('GET', '/usage')).status).toBe(401);
    const signedIn = await browser.json('POST', '/sign-in/link', { token });
    expect(signedIn).toMatchObject({ status: 200, body: { email: 'local (npm start)', plan: 'enterprise' } });
    const api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
    await api.createProfile({ name: 'Local work' });
    // Unlimited, yet counted (in memory, written every few seconds) per member and key.
    await vi.waitFor(
      async () =>
        expect((await browser.json('GET', '/usage')).body).toMatchObject({
          plan: 'enterprise',
          hourly_limit: null,
          used_last_hour: 1,
          by_member: [{ name: 'local (npm start)', requests: 1 }],
          by_key: [{ name: 'local (npm start)', requests: 1 }],
        }),
      { timeout: 3 * TALLY_FLUSH_MS, interval: 250 },
    );
    expect((await browser.json<{ data: unknown[] }>('GET', '/sessions')).body.data).toEqual([]);
    // Its keys are this account's: the one npm start made is listed.
    const keys = await browser.json<{ data: { prefix: string }[] }>('GET', '/keys');
    expect(keys.body.data.map(({ prefix }) => prefix)).toEqual([key.slice(0, 12)]);
  });

  it('lets the command-line account set a first password with an email, then sign in with them', async () => {
    const key = await service.createKey('enterprise', 'local (first password)');
    const browser = dashboardClient(service.baseUrl);
    await browser.json('POST', '/sign-in/link', { token: (await linkFor(key)).token });
    expect((await browser.json('GET', '/status')).body).toMatchObject({
      account: { role: 'owner', has_password: false },
    });
    const password = 'a first password';
    const noEmail = await browser.json('PUT', '/password', { new_password: password });
    expect(noEmail).toMatchObject({
      status: 422,
      body: { errors: [{ path: 'email', message: 'Enter the email you will sign in with.' }] },
    });
    const taken = dashboardClient(service.baseUrl);
    await taken.json('POST', '/sign-up', { email: 'taken@local.example', password });
    const clash = await browser.json('PUT', '/password', {
      email: 'Taken@local.example',
      new_password: password,
    });
    expect(clash.status).toBe(409);
    const set = await browser.json('PUT', '/password', { email: 'me@local.example', new_password: password });
    expect(set.status).toBe(204);
    expect((await browser.json('GET', '/status')).body).toMatchObject({ account: { has_password: true } });
    const elsewhere = dashboardClient(service.baseUrl);
    const signIn = await elsewhere.json('POST', '/sign-in', { email: 'me@local.example', password });
    expect(signIn).toMatchObject({ status: 200, body: { plan: 'enterprise', role: 'owner' } });
    // From now on a change asks for the current password.
    const change = await elsewhere.json('PUT', '/password', { new_password: 'another password' });
    expect(change.status).toBe(422);
  });

  it('works once: a second use, from any browser, is refused with what to do', async () => {
    const key = await service.createKey('free', 'once');
    const { token } = await linkFor(key);
    expect((await dashboardClient(service.baseUrl).json('POST', '/sign-in/link', { token })).status).toBe(
      200,
    );
    const again = await dashboardClient(service.baseUrl).json<{ detail: string }>('POST', '/sign-in/link', {
      token,
    });
    expect(again.status).toBe(401);
    expect(again.body.detail).toMatch(/used already or has expired: make a new one \(npm start prints one/);
  });

  it('refuses a made-up or malformed token, and an unknown account gets no link', async () => {
    const browser = dashboardClient(service.baseUrl);
    expect((await browser.json('POST', '/sign-in/link', { token: 'A'.repeat(43) })).status).toBe(401);
    expect((await browser.json('POST', '/sign-in/link', { token: '' })).status).toBe(422);
    expect((await browser.json('POST', '/sign-in/link', {})).status).toBe(422);
    const unknown = await service.cli(['keys', 'sign-in-link', 'pp_live_nobody']);
    // Without --url the link is on the configured address (PORT, 0 here: the test service took a free one).
    const key = await service.createKey('free');
    expect((await service.cli(['keys', 'sign-in-link', key.slice(0, 12)])).stdout).toMatch(
      /^http:\/\/127\.0\.0\.1:0\/dashboard\/#\/sign-in\/[\w-]{43}\n$/,
    );
    expect(unknown).toMatchObject({ code: 1, stdout: '' });
    expect(unknown.stderr).toMatch(/No account has the id, email or key prefix/);
  });

  it('signs in only the account it was made for, and the link’s token is in no log line', async () => {
    const mine = await service.createKey('free', 'mine');
    const theirs = await service.createKey('free', 'theirs');
    const { token } = await linkFor(mine);
    const browser = dashboardClient(service.baseUrl);
    await browser.json('POST', '/sign-in/link', { token });
    const keys = await browser.json<{ data: { prefix: string }[] }>('GET', '/keys');
    expect(keys.body.data.map(({ prefix }) => prefix)).toEqual([mine.slice(0, 12)]);
    expect(keys.body.data.map(({ prefix }) => prefix)).not.toContain(theirs.slice(0, 12));
    expect(service.logs.join('\n')).not.toContain(token);
  });

  it('counts wrong tokens from one address as failed sign-ins: past the limit, 429 with when to try again', async () => {
    const browser = dashboardClient(service.baseUrl);
    // The cases above spent some of this address's attempts already.
    const answers: number[] = [];
    while (answers.at(-1) !== 429 && answers.length <= ATTEMPTS_PER_ADDRESS) {
      const token = randomBytes(32).toString('base64url');
      answers.push((await browser.json('POST', '/sign-in/link', { token })).status);
    }
    expect(new Set(answers.slice(0, -1))).toEqual(new Set([401]));
    const refused = await browser.json<{ detail: string }>('POST', '/sign-in/link', {
      token: 'x'.repeat(43),
    });
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toMatch(/^Too many attempts; try again in \d+ (minutes|seconds)\.$/);
  });
});
