import { mkdir, stat, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { profileDataDir } from '../../../server/core/data-dir';
import { apiError, JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let client: ApiClient;
let other: ApiClient;
let key: string;

beforeAll(async () => {
  service = await startServiceInProcess();
  key = await service.createKey('enterprise', 'profiles');
  client = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  other = createClient({
    baseUrl: service.baseUrl,
    apiKey: await service.createKey('enterprise', 'other'),
    fetch,
  });
});
afterAll(() => service?.close());

describe('creating profiles', () => {
  it('creates a profile with its own proxy and never echoes the password', async () => {
    const response = await requester(service.baseUrl, key)('POST', '/v1/profiles', {
      headers: JSON_HEADERS,
      body: JSON.stringify({
        name: '  Shop EU  ',
        proxy: 'socks5://alice:s3cret%21@Proxy.Example.com:1080',
        tags: ['eu', 'shop'],
        notes: 'main account',
        fingerprint: { language: 'de-DE', timezone: 'Europe/Berlin', screen: { width: 1280, height: 800 } },
      }),
    });
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).not.toContain('s3cret');
    const profile = JSON.parse(text);
    expect(response.headers.get('location')).toBe(`/v1/profiles/${profile.id}`);
    expect(profile).toMatchObject({
      name: 'Shop EU',
      proxy: 'socks5://alice@proxy.example.com:1080',
      proxy_id: null,
      tags: ['eu', 'shop'],
      notes: 'main account',
      fingerprint: { language: 'de-DE', timezone: 'Europe/Berlin', screen: { width: 1280, height: 800 } },
      status: 'idle',
      session_id: null,
    });
    expect(profile.id).toMatch(/^prf_[0-9A-Za-z]{20}$/);
    expect(profile.created_at).toBe(profile.updated_at);
    expect(await client.getProfile(profile.id)).toEqual(profile);
  });

  it('creates a profile without a proxy with defaults', async () => {
    const profile = await client.createProfile({ name: 'Bare' });
    expect(profile).toMatchObject({ proxy: null, proxy_id: null, tags: [], notes: '', fingerprint: {} });
  });

  it('points a profile at a saved proxy of the account', async () => {
    const proxy = await client.createProxy({
      name: 'Saved',
      scheme: 'http',
      host: 'relay.example',
      port: 3128,
      username: 'bob',
      password: 'hunter2',
    });
    const profile = await client.createProfile({ name: 'Uses saved', proxy_id: proxy.id });
    expect(profile).toMatchObject({ proxy_id: proxy.id, proxy: 'http://bob@relay.example:3128' });
  });

  it('refuses an unknown proxy_id, and another account’s, with a field error', async () => {
    const foreign = await other.createProxy({
      name: 'Not yours',
      scheme: 'http',
      host: 'x.example',
      port: 80,
    });
    for (const proxyId of ['prx_doesnotexist', foreign.id]) {
      const error = await apiError(client.createProfile({ name: 'Bad', proxy_id: proxyId }));
      expect(error).toMatchObject({ status: 422, code: 'validation_failed' });
      expect(error.fieldErrors).toEqual([{ path: 'proxy_id', message: expect.any(String) }]);
    }
  });

  it('refuses proxy and proxy_id together, and malformed proxies', async () => {
    const both = await apiError(
      client.createProfile({ name: 'Both', proxy: 'http://h:1', proxy_id: 'prx_x' }),
    );
    expect(both.fieldErrors).toContainEqual({
      path: 'proxy_id',
      message: 'give either proxy or proxy_id, not both',
    });
    for (const proxy of ['http://host', 'http://host:70000', 'gopher://host:70']) {
      const error = await apiError(client.createProfile({ name: 'Bad proxy', proxy }));
      expect(error.status).toBe(422);
      expect(error.fieldErrors[0]?.path).toBe('proxy');
    }
    const tooLong = await apiError(client.createProfile({ name: 'x'.repeat(101) }));
    expect(tooLong.fieldErrors).toEqual([{ path: 'name', message: 'must be at most 100 characters' }]);
  });
});

describe('reading and listing', () => {
  it('answers another account’s profile exactly like an unknown one', async () => {
    const mine = await client.createProfile({ name: 'Private' });
    const foreign = await requester(service.baseUrl, await service.createKey('free'))(
      'GET',
      `/v1/profiles/${mine.id}`,
    );
    const unknown = await requester(service.baseUrl, key)('GET', '/v1/profiles/prf_00000000000000000000');
    expect(foreign.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(await foreign.json()).toEqual(await unknown.json());
    expect((await apiError(other.deleteProfile(mine.id))).status).toBe(404);
    expect((await client.getProfile(mine.id)).id).toBe(mine.id);
  });

  it('pages through the list newest first with an opaque cursor', async () => {
    const fresh = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('enterprise'),
      fetch,
    });
    const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
    for (const name of names) await fresh.createProfile({ name });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await fresh.listProfiles({ limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.data.map((profile) => profile.name));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(seen).toEqual(['p5', 'p4', 'p3', 'p2', 'p1']);
    expect(pages).toBe(3);
    const all = await fresh.listProfiles();
    expect(all.data).toHaveLength(5);
    expect(all.next_cursor).toBeNull();
  });

  it('filters by name or tag, case-insensitively and literally, and by status', async () => {
    const fresh = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('enterprise'),
      fetch,
    });
    for (const name of ['Alpha shop', 'beta SHOP', 'gamma', '100% real']) await fresh.createProfile({ name });
    const shops = await fresh.listProfiles({ q: 'Shop' });
    expect(shops.data.map((profile) => profile.name)).toEqual(['beta SHOP', 'Alpha shop']);
    expect((await fresh.listProfiles({ q: '%' })).data.map((profile) => profile.name)).toEqual(['100% real']);
    await fresh.createProfile({ name: 'tagged', tags: ['Warm-up'] });
    expect((await fresh.listProfiles({ q: 'warm' })).data.map((profile) => profile.name)).toEqual(['tagged']);
    expect(
      (await fresh.listProfiles({ q: 'SHOP', cursor: shops.next_cursor ?? undefined })).data,
    ).toHaveLength(2);
    expect((await fresh.listProfiles({ status: 'idle' })).data).toHaveLength(5);
    expect((await fresh.listProfiles({ status: 'running' })).data).toHaveLength(0);
  });

  it('matches q in tags too, filters by one exact tag, and counts every match only when asked', async () => {
    const fresh = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('enterprise'),
      fetch,
    });
    await fresh.createProfile({ name: 'Alpha', tags: ['retail', 'eu'] });
    await fresh.createProfile({ name: 'Beta', tags: ['Retail-US'] });
    await fresh.createProfile({ name: 'retailer', tags: [] });
    await fresh.createProfile({ name: 'Gamma', tags: ['eu'] });
    // Another account's matching profiles are neither listed nor counted.
    await other.createProfile({ name: 'retail elsewhere', tags: ['retail'] });
    const names = (page: { data: { name: string }[] }) => page.data.map((profile) => profile.name);

    const byQ = await fresh.listProfiles({ q: 'RETAIL' });
    expect(names(byQ)).toEqual(['retailer', 'Beta', 'Alpha']);
    expect(byQ.total).toBeUndefined();
    expect(names(await fresh.listProfiles({ tag: 'retail' }))).toEqual(['Alpha']);
    expect(names(await fresh.listProfiles({ tag: 'eu', q: 'gam' }))).toEqual(['Gamma']);

    const first = await fresh.listProfiles({ q: 'retail', limit: 2, total: 'true' });
    expect(first).toMatchObject({ total: 3 });
    expect(first.data).toHaveLength(2);
    expect(await fresh.listProfiles({ tag: 'eu', status: 'idle', total: 'true' })).toMatchObject({
      total: 2,
    });
    expect(await fresh.listProfiles({ status: 'running', total: 'true' })).toMatchObject({
      total: 0,
      data: [],
    });
    expect(await fresh.listProfiles({ total: 'true' })).toMatchObject({ total: 4 });
  });

  it('refuses a cursor it did not make', async () => {
    const error = await apiError(client.listProfiles({ cursor: 'bm90LWEtY3Vyc29y' }));
    expect(error).toMatchObject({ status: 422, code: 'validation_failed' });
    expect(error.fieldErrors[0]?.path).toBe('cursor');
    const status = await apiError(client.listProfiles({ status: 'sleeping' as 'idle' }));
    expect(status.fieldErrors[0]?.path).toBe('status');
  });
});

describe('changing and cloning', () => {
  it('changes only the fields given, re-proxies without echoing the password, and says it applies now', async () => {
    const saved = await client.createProxy({ name: 'Saved', scheme: 'http', host: '10.0.0.9', port: 3128 });
    const profile = await client.createProfile({
      name: 'Before',
      proxy_id: saved.id,
      tags: ['a'],
      notes: 'keep',
    });
    const renamed = await client.updateProfile(profile.id, { name: ' After ', tags: ['b', 'c'] });
    expect(renamed).toMatchObject({
      name: 'After',
      tags: ['b', 'c'],
      notes: 'keep',
      proxy_id: saved.id,
      applies_at_next_start: false,
    });
    const response = await requester(service.baseUrl, key)('PATCH', `/v1/profiles/${profile.id}`, {
      headers: JSON_HEADERS,
      body: JSON.stringify({
        proxy: 'socks5://bob:hunter2@proxy.example:1080',
        fingerprint: { language: 'fr-FR' },
      }),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain('hunter2');
    expect(JSON.parse(text)).toMatchObject({
      proxy: 'socks5://bob@proxy.example:1080',
      proxy_id: null,
      fingerprint: { language: 'fr-FR' },
    });
    expect(await client.updateProfile(profile.id, { proxy: null })).toMatchObject({
      proxy: null,
      proxy_id: null,
    });
  });

  it('refuses another account’s profile or proxy, and bad bodies, with the field at fault', async () => {
    const mine = await client.createProfile({ name: 'Mine' });
    expect((await apiError(other.updateProfile(mine.id, { name: 'Taken' }))).status).toBe(404);
    expect((await apiError(other.cloneProfile(mine.id))).status).toBe(404);
    const theirs = await other.createProxy({ name: 'Theirs', scheme: 'http', host: '10.0.0.8', port: 80 });
    const foreign = await apiError(client.updateProfile(mine.id, { proxy_id: theirs.id }));
    expect(foreign).toMatchObject({ status: 422, fieldErrors: [{ path: 'proxy_id' }] });
    const both = await apiError(client.updateProfile(mine.id, { proxy: 'http://h:1', proxy_id: theirs.id }));
    expect(both.fieldErrors[0]?.path).toBe('proxy_id');
    const unknown = await apiError(client.updateProfile(mine.id, { nmae: 'x' } as never));
    expect(unknown.status).toBe(422);
    expect((await client.getProfile(mine.id)).name).toBe('Mine');
  });

  it('clones the settings, proxy password included, into a new profile without browser data', async () => {
    const original = await client.createProfile({
      name: 'Original',
      proxy: 'http://carol:pw@proxy.example:8080',
      tags: ['t'],
      notes: 'n',
      fingerprint: { timezone: 'Europe/Paris' },
    });
    const copy = await client.cloneProfile(original.id);
    expect(copy).toMatchObject({
      name: 'Original (copy)',
      proxy: 'http://carol@proxy.example:8080',
      tags: ['t'],
      notes: 'n',
      fingerprint: { timezone: 'Europe/Paris' },
      status: 'idle',
    });
    expect(copy.id).not.toBe(original.id);
    expect((await client.cloneProfile(original.id, { name: 'Second' })).name).toBe('Second');
  });
});

describe('deleting', () => {
  it('deletes the profile and its browser data, then answers 404', async () => {
    const profile = await client.createProfile({ name: 'Doomed' });
    const browserData = profileDataDir(service.dataDir, profile.id);
    await mkdir(`${browserData}/Default`, { recursive: true });
    await writeFile(`${browserData}/Default/Cookies`, 'cookie jar');
    await client.deleteProfile(profile.id);
    await expect(stat(browserData)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await apiError(client.getProfile(profile.id))).status).toBe(404);
    expect((await apiError(client.deleteProfile(profile.id))).code).toBe('not_found');
  });

  it('validates the force flag', async () => {
    const profile = await client.createProfile({ name: 'Forceful' });
    const response = await requester(service.baseUrl, key)('DELETE', `/v1/profiles/${profile.id}?force=yes`);
    expect(response.status).toBe(422);
    expect(
      (await requester(service.baseUrl, key)('DELETE', `/v1/profiles/${profile.id}?force=false`)).status,
    ).toBe(204);
  });
});
