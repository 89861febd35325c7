import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;

beforeAll(async () => {
  service = await startServiceInProcess();
});
afterAll(() => service?.close());

async function freshAccount() {
  const key = await service.createKey('enterprise');
  const request = requester(service.baseUrl, key);
  const post = (path: string, body: unknown, idempotencyKey: string) =>
    request('POST', path, {
      headers: { ...JSON_HEADERS, 'Idempotency-Key': idempotencyKey },
      body: JSON.stringify(body),
    });
  return { key, request, post, client: createClient({ baseUrl: service.baseUrl, apiKey: key, fetch }) };
}

describe('Idempotency-Key on POST', () => {
  it('replays the stored answer for the same key and body, and creates nothing new', async () => {
    const { post, client } = await freshAccount();
    const idempotencyKey = randomUUID();
    const first = await post('/v1/profiles', { name: 'Once' }, idempotencyKey);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('/v1/profiles', { name: 'Once' }, idempotencyKey);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await again.text()).toBe(await first.text());
    expect((await client.listProfiles()).data).toHaveLength(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another body or path', async () => {
    const { post, client } = await freshAccount();
    const idempotencyKey = randomUUID();
    expect((await post('/v1/profiles', { name: 'First' }, idempotencyKey)).status).toBe(201);
    for (const [path, body] of [
      ['/v1/profiles', { name: 'Second' }],
      ['/v1/proxies', { name: 'First', scheme: 'http', host: 'h', port: 1 }],
    ] as const) {
      const reused = await post(path, body, idempotencyKey);
      expect(reused.status).toBe(422);
      expect(await reused.json()).toMatchObject({ code: 'idempotency_key_reused' });
    }
    expect((await client.listProfiles()).data.map((profile) => profile.name)).toEqual(['First']);
    expect((await client.listProxies()).data).toHaveLength(0);
  });

  it('creates exactly one resource when the same request races itself', async () => {
    const { post, client } = await freshAccount();
    const idempotencyKey = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 12 }, () =>
        post('/v1/proxies', { name: 'Race', scheme: 'http', host: 'h', port: 1 }, idempotencyKey),
      ),
    );
    const fresh = responses.filter(
      (response) => response.status === 201 && !response.headers.get('idempotent-replayed'),
    );
    expect(fresh).toHaveLength(1);
    for (const response of responses) {
      if (response.status === 201) continue;
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({ code: 'idempotency_in_flight' });
      expect(response.headers.get('retry-after')).toBe('1');
    }
    expect((await client.listProxies()).data).toHaveLength(1);
  });

  it('keeps keys per account', async () => {
    const idempotencyKey = randomUUID();
    const first = await freshAccount();
    const second = await freshAccount();
    const a = await (await first.post('/v1/profiles', { name: 'A' }, idempotencyKey)).json();
    const b = await (await second.post('/v1/profiles', { name: 'B' }, idempotencyKey)).json();
    expect(a.name).toBe('A');
    expect(b.name).toBe('B');
  });

  it('lets a key whose request failed be used again', async () => {
    const { post } = await freshAccount();
    const idempotencyKey = randomUUID();
    expect((await post('/v1/profiles', { name: '' }, idempotencyKey)).status).toBe(422);
    const retried = await post('/v1/profiles', { name: 'Fixed' }, idempotencyKey);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('sends a fresh key with every create of the typed client', async () => {
    const { key } = await freshAccount();
    const sentKeys: (string | null)[] = [];
    const recording: typeof fetch = (input, init) => {
      if (init?.method === 'POST') sentKeys.push(new Headers(init.headers).get('Idempotency-Key'));
      return fetch(input, init);
    };
    const client = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch: recording });
    await client.createProfile({ name: 'One' });
    await client.createProfile({ name: 'One' });
    expect(sentKeys).toHaveLength(2);
    expect(sentKeys.every((sent) => typeof sent === 'string' && sent.length > 0)).toBe(true);
    expect(new Set(sentKeys).size).toBe(2);
    expect((await client.listProfiles()).data).toHaveLength(2);
  });

  it('refuses an unusable key', async () => {
    const { request } = await freshAccount();
    const response = await request('POST', '/v1/profiles', {
      headers: { ...JSON_HEADERS, 'Idempotency-Key': 'x'.repeat(300) },
      body: JSON.stringify({ name: 'Long key' }),
    });
    expect(response.status).toBe(422);
    expect((await response.json()).errors).toEqual([
      { path: 'Idempotency-Key', message: expect.any(String) },
    ]);
  });
});
