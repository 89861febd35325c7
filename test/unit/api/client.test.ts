import { describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { jsonResponse, problemResponse, scriptedFetch } from './fake-fetch';
import { account, page, profile, proxy, run, session } from './fixtures';
import { API_KEY, BASE_URL, failure, harness } from './harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const proxyBody = { name: 'Office', scheme: 'socks5', host: '1.2.3.4', port: 1080 } as const;
const script = { steps: [{ action: 'goto' as const, url: 'https://example.com' }] };

describe('requests', () => {
  it('sends the key and asks for JSON, with no Content-Type or Idempotency-Key on a bodiless GET', async () => {
    const { api, requests } = harness([jsonResponse(account)]);
    await api.getAccount();
    expect(requests[0]?.headers).toEqual({
      authorization: `Bearer ${API_KEY}`,
      accept: 'application/json',
    });
  });

  it('sends a JSON body with its Content-Type and a fresh Idempotency-Key on every POST', async () => {
    const { api, requests } = harness([jsonResponse(profile, 201), jsonResponse(profile, 201)]);
    await api.createProfile({ name: 'Shop', proxy: 'http://proxy.example:8080' });
    await api.createProfile({ name: 'Shop' });
    const [first, second] = requests;
    expect(first?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(first?.body ?? '')).toEqual({ name: 'Shop', proxy: 'http://proxy.example:8080' });
    expect(first?.headers['idempotency-key']).toMatch(UUID);
    expect(second?.headers['idempotency-key']).toMatch(UUID);
    expect(second?.headers['idempotency-key']).not.toBe(first?.headers['idempotency-key']);
  });

  it('uses the caller’s Idempotency-Key, so a retry by the user is recognised', async () => {
    const { api, requests } = harness([jsonResponse(session, 201)]);
    await api.startSession({ profile_id: 'prf_1' }, { idempotencyKey: 'retry-me' });
    expect(requests[0]?.headers['idempotency-key']).toBe('retry-me');
  });

  it('sends an Idempotency-Key on a bodiless POST, without a Content-Type', async () => {
    const { api, requests } = harness([jsonResponse(run)]);
    await api.cancelRun('run_1');
    expect(requests[0]?.headers['idempotency-key']).toMatch(UUID);
    expect(requests[0]?.headers['content-type']).toBeUndefined();
    expect(requests[0]?.body).toBeUndefined();
  });

  it('joins a base URL with a trailing slash without doubling it', async () => {
    const { api, requests } = harness([jsonResponse(account)], { baseUrl: `${BASE_URL}/` });
    await api.getAccount();
    expect(requests[0]?.url).toBe(`${BASE_URL}/v1/account`);
  });

  it('calls fetch detached, as browsers require', async () => {
    const { fetch } = scriptedFetch(jsonResponse(account));
    let receiver: unknown = 'not called';
    const api = createClient({
      baseUrl: BASE_URL,
      apiKey: API_KEY,
      fetch: function (this: unknown, input, init) {
        receiver = this;
        return fetch(input, init);
      } as typeof globalThis.fetch,
    });
    await api.getAccount();
    expect(receiver).toBeUndefined();
  });
});

describe('one method per endpoint', () => {
  const cases: [string, (api: ApiClient) => Promise<unknown>, Response, string, string][] = [
    ['getAccount', (api) => api.getAccount(), jsonResponse(account), 'GET', '/v1/account'],
    [
      'listProfiles',
      (api) => api.listProfiles({ q: 'shop & co', status: 'idle', limit: 20 }),
      jsonResponse(page([profile])),
      'GET',
      '/v1/profiles?q=shop+%26+co&status=idle&limit=20',
    ],
    ['listProfiles bare', (api) => api.listProfiles(), jsonResponse(page([])), 'GET', '/v1/profiles'],
    [
      'createProfile',
      (api) => api.createProfile({ name: 'Shop' }),
      jsonResponse(profile, 201),
      'POST',
      '/v1/profiles',
    ],
    ['getProfile', (api) => api.getProfile('prf/1'), jsonResponse(profile), 'GET', '/v1/profiles/prf%2F1'],
    [
      'deleteProfile',
      (api) => api.deleteProfile('prf_1'),
      new Response(null, { status: 204 }),
      'DELETE',
      '/v1/profiles/prf_1',
    ],
    [
      'deleteProfile force',
      (api) => api.deleteProfile('prf_1', { force: true }),
      new Response(null, { status: 204 }),
      'DELETE',
      '/v1/profiles/prf_1?force=true',
    ],
    [
      'listProxies',
      (api) => api.listProxies({ cursor: 'c1' }),
      jsonResponse(page([proxy])),
      'GET',
      '/v1/proxies?cursor=c1',
    ],
    ['createProxy', (api) => api.createProxy(proxyBody), jsonResponse(proxy, 201), 'POST', '/v1/proxies'],
    ['getProxy', (api) => api.getProxy('prx_1'), jsonResponse(proxy), 'GET', '/v1/proxies/prx_1'],
    [
      'updateProxy',
      (api) => api.updateProxy('prx_1', { ...proxyBody, password: null }),
      jsonResponse(proxy),
      'PUT',
      '/v1/proxies/prx_1',
    ],
    [
      'deleteProxy',
      (api) => api.deleteProxy('prx_1'),
      new Response(null, { status: 204 }),
      'DELETE',
      '/v1/proxies/prx_1',
    ],
    [
      'listSessions',
      (api) => api.listSessions({ status: 'running' }),
      jsonResponse(page([session])),
      'GET',
      '/v1/sessions?status=running',
    ],
    ['getSession', (api) => api.getSession('ses_1'), jsonResponse(session), 'GET', '/v1/sessions/ses_1'],
    [
      'startSession',
      (api) => api.startSession({ profile_id: 'prf_1', headless: true }),
      jsonResponse(session, 201),
      'POST',
      '/v1/sessions/start',
    ],
    [
      'stopSession',
      (api) => api.stopSession({ profile_id: 'prf_1' }),
      jsonResponse({ ...session, status: 'stopped' }),
      'DELETE',
      '/v1/sessions/stop?profile_id=prf_1',
    ],
    [
      'runAutomation',
      (api) => api.runAutomation({ profile_id: 'prf_1', script }),
      jsonResponse({ ...run, status: 'queued' }, 202),
      'POST',
      '/v1/automation/run',
    ],
    [
      'getRun',
      (api) => api.getRun('run_1', { wait: 20, after_version: 3 }),
      jsonResponse(run),
      'GET',
      '/v1/automation/status?run_id=run_1&wait=20&after_version=3',
    ],
    [
      'getRun plain',
      (api) => api.getRun('run_1'),
      jsonResponse(run),
      'GET',
      '/v1/automation/status?run_id=run_1',
    ],
    [
      'listRuns',
      (api) => api.listRuns({ status: 'active' }),
      jsonResponse(page([run])),
      'GET',
      '/v1/automation/status?status=active',
    ],
    [
      'cancelRun',
      (api) => api.cancelRun('run_1'),
      jsonResponse(run),
      'POST',
      '/v1/automation/runs/run_1/cancel',
    ],
    [
      'getArtifact',
      (api) => api.getArtifact('run_1', 'shot.png'),
      new Response(new Uint8Array([137, 80, 78, 71]), { headers: { 'Content-Type': 'image/png' } }),
      'GET',
      '/v1/automation/runs/run_1/artifacts/shot.png',
    ],
  ];

  it.each(cases)(
    '%s sends the method, path and query of its endpoint',
    async (_, invoke, answer, method, path) => {
      const { api, requests } = harness([answer]);
      await invoke(api);
      expect(requests).toHaveLength(1);
      expect(requests[0]?.method).toBe(method);
      expect(requests[0]?.url).toBe(`${BASE_URL}${path}`);
    },
  );

  it('returns the validated body', async () => {
    const { api } = harness([jsonResponse(session)]);
    await expect(api.getSession('ses_1')).resolves.toEqual(session);
  });

  it('tolerates fields the schema does not know', async () => {
    const { api } = harness([jsonResponse({ ...profile, color: 'blue' })]);
    await expect(api.getProfile('prf_1')).resolves.toMatchObject({ id: 'prf_1' });
  });

  it('accepts a bare array for a list', async () => {
    const { api } = harness([jsonResponse([proxy])]);
    await expect(api.listProxies()).resolves.toEqual({ data: [proxy], next_cursor: null });
  });

  it('does not take a bare array for a single resource', async () => {
    const { api } = harness([jsonResponse([profile])]);
    const error = await failure(api.getProfile('prf_1'));
    expect(error.code).toBe('invalid_response');
  });

  it('answers undefined for a 204', async () => {
    const { api } = harness([new Response(null, { status: 204 })]);
    await expect(api.deleteProxy('prx_1')).resolves.toBeUndefined();
  });

  it('answers an artifact as a Blob, and asks for any type', async () => {
    const bytes = new Uint8Array([137, 80, 78, 71]);
    const { api, requests } = harness([new Response(bytes, { headers: { 'Content-Type': 'image/png' } })]);
    const blob = await api.getArtifact('run_1', 'shot');
    expect(blob).toBeInstanceOf(Blob);
    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(bytes);
    expect(requests[0]?.headers.accept).toBe('*/*');
  });

  it('reads a problem, not a Blob, when an artifact is missing', async () => {
    const { api } = harness([problemResponse(404, { code: 'not_found', detail: 'No artifact "shot".' })]);
    const error = await failure(api.getArtifact('run_1', 'shot'));
    expect(error.code).toBe('not_found');
    expect(error.userMessage).toBe('That artifact no longer exists.');
  });
});
