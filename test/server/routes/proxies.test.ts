import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { apiError, JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let client: ApiClient;
let key: string;

beforeAll(async () => {
  service = await startServiceInProcess();
  key = await service.createKey('enterprise', 'proxies');
  client = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
});
afterAll(() => service?.close());

const base = { name: 'Office', scheme: 'http', host: 'Gate.Example.org', port: 8080 } as const;

describe('proxies', () => {
  it('creates a proxy and never echoes its password', async () => {
    const response = await requester(service.baseUrl, key)('POST', '/v1/proxies', {
      headers: JSON_HEADERS,
      body: JSON.stringify({ ...base, username: 'carol', password: 'pa55word' }),
    });
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).not.toContain('pa55word');
    const proxy = JSON.parse(text);
    expect(response.headers.get('location')).toBe(`/v1/proxies/${proxy.id}`);
    expect(proxy).toMatchObject({
      name: 'Office',
      scheme: 'http',
      host: 'gate.example.org',
      port: 8080,
      username: 'carol',
      has_password: true,
      url: 'http://carol@gate.example.org:8080',
    });
    expect(proxy.id).toMatch(/^prx_/);
    const listed = await client.listProxies();
    expect(JSON.stringify(listed)).not.toContain('pa55word');
    expect(await client.getProxy(proxy.id)).toEqual(proxy);
  });

  it('replaces with PUT: a missing password keeps it, null clears it, a new one replaces it', async () => {
    const proxy = await client.createProxy({ ...base, username: 'dave', password: 'first' });
    const kept = await client.updateProxy(proxy.id, { ...base, name: 'Renamed', username: 'dave' });
    expect(kept).toMatchObject({ name: 'Renamed', has_password: true, username: 'dave' });
    expect(Date.parse(kept.updated_at)).toBeGreaterThanOrEqual(Date.parse(proxy.updated_at));
    expect(kept.created_at).toBe(proxy.created_at);

    // The replacement is whole: a username left out is gone.
    const withoutUser = await client.updateProxy(proxy.id, { ...base });
    expect(withoutUser).toMatchObject({
      username: null,
      has_password: true,
      url: 'http://gate.example.org:8080',
    });

    const cleared = await client.updateProxy(proxy.id, { ...base, password: null });
    expect(cleared.has_password).toBe(false);
    const replaced = await client.updateProxy(proxy.id, {
      ...base,
      scheme: 'socks5',
      port: 1080,
      password: 'second',
    });
    expect(replaced).toMatchObject({ has_password: true, scheme: 'socks5', port: 1080 });
    expect(await client.getProxy(proxy.id)).toEqual(replaced);
  });

  it('validates bodies, also on PUT', async () => {
    const created = await apiError(client.createProxy({ ...base, port: 0, scheme: 'ftp' as 'http' }));
    expect(created.status).toBe(422);
    expect(created.fieldErrors.map((error) => error.path).sort()).toEqual(['port', 'scheme']);
    const proxy = await client.createProxy(base);
    const put = await requester(service.baseUrl, key)('PUT', `/v1/proxies/${proxy.id}`, {
      headers: JSON_HEADERS,
      body: JSON.stringify({ ...base, password: '', extra: true }),
    });
    expect(put.status).toBe(422);
    const problem = await put.json();
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { path: 'password', message: 'must not be empty' },
        { path: '', message: 'unknown field: extra' },
      ]),
    );
  });

  it('answers another account’s proxy as unknown, for every method', async () => {
    const proxy = await client.createProxy(base);
    const stranger = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('enterprise'),
      fetch,
    });
    expect((await apiError(stranger.getProxy(proxy.id))).status).toBe(404);
    expect((await apiError(stranger.updateProxy(proxy.id, base))).status).toBe(404);
    expect((await apiError(stranger.deleteProxy(proxy.id))).status).toBe(404);
    expect((await apiError(stranger.updateProxy('prx_unknown', base))).code).toBe('not_found');
    expect((await stranger.listProxies()).data).toEqual([]);
    expect((await client.getProxy(proxy.id)).name).toBe('Office');
  });

  it('refuses to delete a proxy a profile uses (409 proxy_in_use), then deletes it once free', async () => {
    const proxy = await client.createProxy(base);
    const profile = await client.createProfile({ name: 'Bound', proxy_id: proxy.id });
    const error = await apiError(client.deleteProxy(proxy.id));
    expect(error).toMatchObject({ status: 409, code: 'proxy_in_use' });
    await client.deleteProfile(profile.id);
    await client.deleteProxy(proxy.id);
    expect((await apiError(client.getProxy(proxy.id))).status).toBe(404);
  });

  it('shows a profile the new settings of its saved proxy', async () => {
    const proxy = await client.createProxy({ ...base, username: 'erin' });
    const profile = await client.createProfile({ name: 'Follows', proxy_id: proxy.id });
    await client.updateProxy(proxy.id, { ...base, host: 'new.example', port: 9000 });
    expect((await client.getProfile(profile.id)).proxy).toBe('http://new.example:9000');
  });

  it('pages proxies newest first', async () => {
    const fresh = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('enterprise'),
      fetch,
    });
    for (const name of ['a', 'b', 'c']) await fresh.createProxy({ ...base, name });
    const first = await fresh.listProxies({ limit: 2 });
    expect(first.data.map((proxy) => proxy.name)).toEqual(['c', 'b']);
    const second = await fresh.listProxies({ limit: 2, cursor: first.next_cursor ?? '' });
    expect(second).toMatchObject({ next_cursor: null, data: [{ name: 'a' }] });
  });
});
