import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { endpoints } from '../../../lib/api/endpoints';
import { JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
let service: TestService;
let key: string;
let request: ReturnType<typeof requester>;

beforeAll(async () => {
  service = await startServiceInProcess();
  key = await service.createKey('premium', 'basics');
  request = requester(service.baseUrl, key);
});
afterAll(() => service?.close());

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = await response.json();
  expect(body).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String) });
  expect(body.detail).toEqual(expect.any(String));
  expect(body).not.toHaveProperty('stack');
  return body;
}

describe('public endpoints', () => {
  it('answers /healthz without a key', async () => {
    const response = await fetch(`${service.baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', version: '0.1.0', uptime_s: expect.any(Number) });
  });

  it('does not serve /metrics without a METRICS_TOKEN', async () => {
    expect((await fetch(`${service.baseUrl}/metrics`)).status).toBe(404);
  });

  it('serves an OpenAPI 3.1 document with every endpoint of the table, without a key', async () => {
    const response = await fetch(`${service.baseUrl}/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = await response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('0.1.0');
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const endpoint of Object.values(endpoints)) {
      const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
      const operation = document.paths[path]?.[endpoint.method.toLowerCase()];
      expect(operation, `${endpoint.method} ${path}`).toBeDefined();
      expect(operation.responses[String(endpoint.status)]).toBeDefined();
      expect(operation.responses['429']).toBeDefined();
      if (endpoint.method === 'POST' && endpoint.idempotent) {
        expect(operation.parameters).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
      }
    }
    expect(document.paths['/v1/profiles'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ProfileCreate',
    });
    expect(document.paths['/v1/profiles'].get.parameters).toContainEqual({
      name: 'limit',
      in: 'query',
      required: false,
      schema: { default: 50, type: 'integer', minimum: 1, maximum: 100 },
    });
    expect(document.components.schemas.Problem.properties.code).toBeDefined();
    expect(document.components.headers.RateLimit).toBeDefined();
    // Every reference points at something in the document.
    const refs = JSON.stringify(document).match(/"\$ref":"#\/[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const pointer = ref.slice('"$ref":"#/'.length, -1).split('/');
      const target = pointer.reduce<unknown>(
        (node, part) => (node as Record<string, unknown>)?.[part],
        document,
      );
      expect(target, ref).toBeDefined();
    }
  });
});

describe('authentication', () => {
  const cases: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['another scheme', { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
    ['a malformed key', { Authorization: 'Bearer not-a-key' }],
    ['an unknown key', { Authorization: `Bearer pp_live_${'x'.repeat(32)}` }],
  ];
  for (const [name, headers] of cases) {
    it(`answers 401 with WWW-Authenticate for ${name}`, async () => {
      const response = await fetch(`${service.baseUrl}/v1/profiles`, { headers });
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(response.headers.get('ratelimit')).toBeNull();
      await expectProblem(response, 401, 'unauthorized');
    });
  }

  it('answers 401 for a key revoked while the service runs', async () => {
    const doomed = await service.createKey('free', 'doomed');
    expect((await requester(service.baseUrl, doomed)('GET', '/v1/account')).status).toBe(200);
    const revoked = await service.cli(['keys', 'revoke', doomed.slice(0, 12)]);
    expect(revoked.code).toBe(0);
    const body = await expectProblem(
      await requester(service.baseUrl, doomed)('GET', '/v1/account'),
      401,
      'unauthorized',
    );
    expect(body.detail).toMatch(/revoked/);
  });

  it('tells the account of the key through the typed client', async () => {
    const client = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
    const account = await client.getAccount();
    expect(account).toMatchObject({
      plan: 'premium',
      name: 'basics',
      hourly_limit: 1000,
      session_limit: 10,
      key_prefix: key.slice(0, 12),
    });
    expect(account.id).toMatch(/^acc_/);
  });
});

describe('routing and bodies', () => {
  it('answers 404 for an unknown path', async () => {
    await expectProblem(await request('GET', '/v1/nothing-here'), 404, 'not_found');
    await expectProblem(await fetch(`${service.baseUrl}/elsewhere`), 404, 'not_found');
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const collection = await request('PATCH', '/v1/profiles');
    expect(collection.headers.get('allow')).toBe('GET, POST');
    await expectProblem(collection, 405, 'method_not_allowed');
    const item = await request('POST', '/v1/proxies/prx_123', { headers: JSON_HEADERS, body: '{}' });
    expect(item.headers.get('allow')).toBe('DELETE, GET, PUT');
    await expectProblem(item, 405, 'method_not_allowed');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const response = await request('POST', '/v1/profiles', {
      headers: { 'Content-Type': 'text/plain' },
      body: '{"name":"x"}',
    });
    await expectProblem(response, 415, 'unsupported_media_type');
  });

  it('answers 400 for malformed JSON', async () => {
    const body = await expectProblem(
      await request('POST', '/v1/profiles', { headers: JSON_HEADERS, body: '{"name": "x",' }),
      400,
      'malformed_json',
    );
    expect(body.detail).toMatch(/not valid JSON/);
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const name = 'x'.repeat(1024 * 1024 + 10);
    const response = await request('POST', '/v1/profiles', {
      headers: JSON_HEADERS,
      body: JSON.stringify({ name }),
    });
    await expectProblem(response, 413, 'payload_too_large');
  });

  it('answers 413 for a streamed body over 1 MiB without a Content-Length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(256 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await fetch(`${service.baseUrl}/v1/profiles`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, Authorization: `Bearer ${key}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    await expectProblem(response, 413, 'payload_too_large');
  });

  it('answers 422 with field errors, unknown fields included', async () => {
    const response = await request('POST', '/v1/profiles', {
      headers: JSON_HEADERS,
      body: JSON.stringify({ name: '  ', proxy: 'ftp://host:1', colour: 'red' }),
    });
    const body = await expectProblem(response, 422, 'validation_failed');
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { path: 'name', message: 'must not be empty' },
        { path: 'proxy', message: expect.stringMatching(/scheme/) },
        { path: '', message: 'unknown field: colour' },
      ]),
    );
    expect(body.detail).toMatch(/^Invalid body: name: must not be empty/);
  });

  it('answers 422 for an invalid query', async () => {
    const body = await expectProblem(
      await request('GET', '/v1/profiles?limit=500'),
      422,
      'validation_failed',
    );
    expect(body.errors).toEqual([{ path: 'limit', message: 'must be at most 100' }]);
  });
});

describe('CORS', () => {
  it('answers a preflight from an extension without a key', async () => {
    const response = await fetch(`${service.baseUrl}/v1/profiles`, {
      method: 'OPTIONS',
      headers: {
        Origin: EXTENSION,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type,idempotency-key',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(EXTENSION);
    expect(response.headers.get('access-control-allow-headers')).toMatch(
      /Authorization.*Content-Type.*Idempotency-Key/,
    );
    expect(response.headers.get('access-control-allow-methods')).toMatch(/DELETE/);
  });

  it('lets an extension read the rate-limit headers, also on errors', async () => {
    for (const path of ['/v1/account', '/v1/profiles/prf_unknown']) {
      const response = await request('GET', path, {
        headers: { Origin: 'moz-extension://0b1c2d3e-aaaa-bbbb-cccc-1234567890ab' },
      });
      expect(response.headers.get('access-control-allow-origin')).toMatch(/^moz-extension:/);
      const exposed = response.headers.get('access-control-expose-headers')?.split(',') ?? [];
      for (const header of [
        'RateLimit',
        'RateLimit-Policy',
        'X-RateLimit-Remaining',
        'Retry-After',
        'Location',
        'Idempotent-Replayed',
      ]) {
        expect(exposed).toContain(header);
      }
      expect(response.headers.get('ratelimit')).toMatch(/^"hourly";r=\d+;t=\d+$/);
    }
  });

  it('gives web pages no CORS access', async () => {
    const response = await request('GET', '/v1/account', { headers: { Origin: 'https://evil.example' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('logs', () => {
  it('never writes a key or the Authorization header', () => {
    const logs = service.logs.join('\n');
    expect(logs).toContain('"msg":"request"');
    expect(logs).not.toContain(key);
    expect(logs).not.toMatch(/pp_live_[A-Za-z0-9]{20,}/);
  });
});
