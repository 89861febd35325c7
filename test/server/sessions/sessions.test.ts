import { rm } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import {
  processesWithUserDataDir,
  startAuthenticatingProxy,
  startPageServer,
} from '../../support/browser-fixtures';
import { apiError, type ServiceHandle, startService } from '../../support/harness';

let service: ServiceHandle;
let api: ApiClient;
let key: string;
let pages: Awaited<ReturnType<typeof startPageServer>>;
let proxy: Awaited<ReturnType<typeof startAuthenticatingProxy>>;

const browserDir = (profileId: string) => path.join(service.dataDir, 'profiles', profileId);

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  [service, pages, proxy] = await Promise.all([
    // The page server and the proxy listen on loopback, which sessions reach only when the operator allows it.
    startService({ env: { EGRESS_ALLOW: 'loopback' } }),
    startPageServer(),
    startAuthenticatingProxy('pilot', 's3cret'),
  ]);
  key = await service.createKey('enterprise');
  api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
});

afterAll(async () => {
  await service?.close();
  if (service) await rm(service.dataDir, { recursive: true, force: true });
  await Promise.all([pages?.close(), proxy?.close()]);
});

describe('sessions', () => {
  it('starts a real Chromium with the profile’s proxy, credentials included, and stops it without leftovers', async () => {
    const profile = await api.createProfile({
      name: 'Proxied',
      proxy: `http://pilot:s3cret@127.0.0.1:${proxy.port}`,
      fingerprint: { language: 'de-DE', timezone: 'Europe/Berlin' },
    });
    const session = await api.startSession({ profile_id: profile.id, headless: true });
    expect(session).toMatchObject({
      profile_id: profile.id,
      profile_name: 'Proxied',
      status: 'running',
      headless: true,
      stop_reason: null,
    });
    expect(session.cdp_url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/sessions\/ses_\w+\/cdp\/\d+\.[\w-]{43}$/);
    expect(await api.getProfile(profile.id)).toMatchObject({ status: 'running', session_id: session.id });

    const browser = await chromium.connectOverCDP(session.cdp_url as string);
    const page = await browser.contexts()[0]?.newPage();
    await page?.goto(`${pages.origin}/`);
    expect(
      await page?.evaluate(() => [navigator.language, Intl.DateTimeFormat().resolvedOptions().timeZone]),
    ).toEqual(['de-DE', 'Europe/Berlin']);
    await page?.close();
    // Disconnects this client only: the session's browser is not ours to close.
    await browser.close();
    expect(proxy.seen).toContainEqual({ url: `${pages.origin}/`, authorized: true });

    const duplicate = await apiError(api.startSession({ profile_id: profile.id }));
    expect(duplicate).toMatchObject({ status: 409, code: 'session_exists' });
    expect((await api.listSessions({ status: 'running' })).data.map((s) => s.id)).toContain(session.id);
    // A session names its profile as the profile is named now.
    await api.updateProfile(profile.id, { name: 'Proxied, renamed' });
    expect(await api.getSession(session.id)).toMatchObject({ profile_name: 'Proxied, renamed' });

    const stopped = await api.stopSession({ profile_id: profile.id });
    expect(stopped).toMatchObject({ id: session.id, status: 'stopped', stop_reason: 'user', cdp_url: null });
    expect(processesWithUserDataDir(browserDir(profile.id))).toEqual([]);
    expect(await api.stopSession({ session_id: session.id })).toMatchObject({ status: 'stopped' });
    expect(await api.getProfile(profile.id)).toMatchObject({ status: 'idle', session_id: null });
  });

  it('marks a session stopped (browser_exited) when its browser goes away on its own', async () => {
    const profile = await api.createProfile({ name: 'Closed by hand' });
    expect(profile.last_used_at).toBeNull();
    const session = await api.startSession({ profile_id: profile.id });
    // A profile says when it was last used: when its latest session started.
    expect((await api.getProfile(profile.id)).last_used_at).toBe(session.started_at);
    for (const pid of processesWithUserDataDir(browserDir(profile.id))) process.kill(pid, 'SIGKILL');
    const after = await until(
      () => api.getSession(session.id),
      (s) => s.status === 'stopped',
    );
    expect(after).toMatchObject({ status: 'stopped', stop_reason: 'browser_exited' });
  });

  it('refuses to delete a running profile unless forced, then stops it and removes its data', async () => {
    const profile = await api.createProfile({ name: 'Doomed' });
    await api.startSession({ profile_id: profile.id });
    expect(await apiError(api.deleteProfile(profile.id))).toMatchObject({
      status: 409,
      code: 'profile_running',
    });
    await api.deleteProfile(profile.id, { force: true });
    expect(processesWithUserDataDir(browserDir(profile.id))).toEqual([]);
    const [last] = (await api.listSessions()).data;
    expect(last).toMatchObject({
      profile_id: profile.id,
      profile_name: null,
      status: 'stopped',
      stop_reason: 'profile_deleted',
    });
    expect(await apiError(api.getProfile(profile.id))).toMatchObject({ status: 404 });
  });

  it('answers the error paths: unknown profile, nothing to stop, a selector missing', async () => {
    expect(await apiError(api.startSession({ profile_id: 'prf_unknown' }))).toMatchObject({ status: 404 });
    expect(await apiError(api.stopSession({ session_id: 'ses_unknown' }))).toMatchObject({ status: 404 });
    const response = await fetch(`${service.baseUrl}/v1/sessions/stop`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${await service.createKey('free')}` },
    });
    expect(response.status).toBe(422);
  });
});

describe('sessions across a restart', () => {
  it('ends the browsers of a killed service with it, and marks their sessions stopped on restart', async () => {
    const profile = await api.createProfile({ name: 'Survivor' });
    const session = await api.startSession({ profile_id: profile.id });
    expect(processesWithUserDataDir(browserDir(profile.id)).length).toBeGreaterThan(0);
    await service.kill();
    // Its DevTools pipe closed with the service: the browser ends by itself, holding nothing.
    await expect
      .poll(() => processesWithUserDataDir(browserDir(profile.id)), { timeout: 15_000 })
      .toEqual([]);

    service = await startService({ dataDir: service.dataDir, env: { EGRESS_ALLOW: 'loopback' } });
    api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
    expect(await api.getSession(session.id)).toMatchObject({
      status: 'stopped',
      stop_reason: 'service_shutdown',
    });
    expect(await api.getProfile(profile.id)).toMatchObject({ status: 'idle' });
  });
});
