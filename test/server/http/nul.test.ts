/**
 * U+0000 (NUL), which PostgreSQL's text and jsonb cannot hold: in any id, query or body text of any endpoint it
 * is refused with 422 and a sentence, never a 500; in what a page gives a run, it is stored as U+FFFD.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { endpoints } from '../../../lib/api/endpoints';
import { requests } from '../../../lib/api/requests';
import type { AutomationRun } from '../../../lib/api/schemas/automation';
import { JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

const NUL = '\u0000';
const NUL_MESSAGE = 'must not contain U+0000 (the NUL character)';

let service: TestService;
let api: ApiClient;
let request: ReturnType<typeof requester>;
let document: OpenApiDocument;

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
}

beforeAll(async () => {
  service = await startServiceInProcess();
  const key = await service.createKey('enterprise');
  api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  request = requester(service.baseUrl, key);
  document = await (await fetch(`${service.baseUrl}/v1/openapi.json`)).json();
});
afterAll(() => service?.close());

/** A valid body of each endpoint that takes one, with text in every string field it has. */
const BODIES: Record<string, Record<string, unknown>> = {
  'POST /v1/profiles': {
    name: 'Shop',
    proxy: 'http://user:pass@127.0.0.1:3128',
    tags: ['eu'],
    notes: 'a note',
    fingerprint: { user_agent: 'Mozilla/5.0', language: 'en-US', timezone: 'Europe/Berlin' },
  },
  'PATCH /v1/profiles/:id': {
    name: 'Shop',
    tags: ['eu'],
    notes: 'a note',
    proxy: 'http://user:pass@127.0.0.1:3128',
  },
  'POST /v1/profiles/:id/clone': { name: 'Copy' },
  'POST /v1/profiles/:id/release': { reason: 'Eve went home' },
  'POST /v1/profiles/bulk': {
    select: { filter: { q: '#eu', tag: 'eu' } },
    action: 'set_proxy',
    proxies: ['http://user:pass@127.0.0.1:3128'],
  },
  'POST /v1/help-requests/:id/answer': { outcome: 'answer', text: 'the code' },
  // A JSON array: each cookie's strings are tried in turn.
  'PUT /v1/profiles/:id/cookies': [
    { name: 'sid', value: 'v', domain: 'example.com', path: '/' },
  ] as unknown as Record<string, unknown>,
  'POST /v1/proxies': {
    name: 'Proxy',
    scheme: 'http',
    host: '127.0.0.1',
    port: 3128,
    username: 'user',
    password: 'pass',
  },
  'PUT /v1/proxies/:id': { name: 'Proxy', scheme: 'socks5', host: 'proxy.example', port: 1080 },
  'POST /v1/proxies/paste': { lines: ['http://user:pass@127.0.0.1:3128'] },
  'POST /v1/proxies/replace': { replacements: [{ from: 'prx_dead', to: 'prx_fresh' }] },
  'POST /v1/keys': { name: 'Agent', role: 'runner', scope: { tags: ['eu'] } },
  'POST /v1/members/invitations': { email: 'eve@example.com', role: 'editor', scope: { tags: ['eu'] } },
  'PATCH /v1/members/:id': { role: 'viewer', scope: { tags: ['eu'] } },
  'POST /v1/sessions/start': { profile_id: 'prf_unknown' },
  'POST /v1/webhooks': { url: 'https://hooks.example/in', event_types: ['run.finished'] },
  'DELETE /v1/sessions/stop': { session_id: 'ses_unknown' },
  'POST /v1/automation/run': {
    profile_id: 'prf_unknown',
    name: 'Run',
    script: {
      steps: [
        { action: 'goto', url: 'https://example.com/' },
        { action: 'click', selector: '#go' },
        { action: 'type', selector: '#q', text: 'words' },
        { action: 'wait_for', selector: '.done' },
        { action: 'extract', selector: 'h1', name: 'title', attribute: 'title' },
        { action: 'evaluate', expression: 'document.title', name: 'value' },
        { action: 'screenshot', name: 'shot' },
      ],
    },
  },
};

/** Every string in `value` with its field path as the service names it (`script.steps[1].selector`). */
function stringFields(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringFields(item, `${path}[${index}]`));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => stringFields(item, path ? `${path}.${key}` : key));
  }
  return [];
}

/** `value` with NUL put into the middle of the string at `path`. */
function withNulAt(value: unknown, path: string): unknown {
  const copy = structuredClone(value) as Record<string, unknown>;
  const keys = path.match(/[^.[\]]+/g) ?? [];
  let node: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = keys.at(-1) as string;
  const text = node[last] as string;
  node[last] = `${text.slice(0, 1)}${NUL}${text.slice(1)}`;
  return copy;
}

const concrete = (path: string, param = 'prf_unknown') => path.replace(/:\w+/g, param);

interface NulCase {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  /** The field the answer names. */
  field: string;
}

function cases(): NulCase[] {
  const all: NulCase[] = [];
  const seen = new Set<string>();
  for (const endpoint of Object.values(endpoints)) {
    const route = `${endpoint.method} ${endpoint.path}`;
    if (seen.has(route)) continue;
    seen.add(route);
    // Each path parameter in turn, the others given ordinary ids.
    for (const [param] of endpoint.path.matchAll(/:\w+/g)) {
      const path = endpoint.path.replace(param, 'a%00b').replace(/:\w+/g, 'prf_unknown');
      all.push({ name: `${route}: ${param} in the path`, method: endpoint.method, path, field: 'path' });
    }
    // Each query parameter the document lists.
    const openApiPath = endpoint.path.replace(/:(\w+)/g, '{$1}');
    const parameters = document.paths[openApiPath]?.[endpoint.method.toLowerCase()]?.parameters ?? [];
    for (const { name } of parameters.filter((parameter) => parameter.in === 'query')) {
      all.push({
        name: `${route}: query ${name}`,
        method: endpoint.method,
        path: `${concrete(endpoint.path)}?${name}=a%00b`,
        field: name,
      });
    }
    // Each string of the body, and a key.
    const body = BODIES[route];
    if (body) {
      for (const field of stringFields(body)) {
        all.push({
          name: `${route}: body ${field}`,
          method: endpoint.method,
          path: concrete(endpoint.path),
          body: withNulAt(body, field),
          field,
        });
      }
      all.push({
        name: `${route}: a body key`,
        method: endpoint.method,
        path: concrete(endpoint.path),
        body: { ...body, [`ke${NUL}y`]: 1 },
        field: 'ke\\0y',
      });
    }
  }
  return all;
}

describe('U+0000 in a request', () => {
  it('is tried at every endpoint that takes something: path parameters, query parameters, bodies', () => {
    const all = cases();
    const tried = (route: string) => all.some((one) => one.name.startsWith(`${route}:`));
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const route = `${endpoint.method} ${endpoint.path}`;
      const takes = requests[name as keyof typeof requests] as
        | { query?: unknown; body?: unknown }
        | undefined;
      if (takes?.body) expect(BODIES, `a body for ${route}`).toHaveProperty([route]);
      expect(tried(route), route).toBe(Boolean(takes) || endpoint.path.includes(':'));
    }
    expect(all.length).toBeGreaterThan(40);
  });

  it('answers 422 with a sentence naming the field, at every entry point', async () => {
    const failures: string[] = [];
    for (const one of cases()) {
      const response = await request(one.method, one.path, {
        headers: one.body === undefined ? {} : JSON_HEADERS,
        body: one.body === undefined ? undefined : JSON.stringify(one.body),
      });
      const text = await response.text();
      const problem = (() => {
        try {
          return JSON.parse(text) as { code?: string; detail?: string; errors?: unknown[] };
        } catch {
          return {};
        }
      })();
      const ok =
        response.status === 422 &&
        response.headers.get('content-type') === 'application/problem+json' &&
        problem.code === 'validation_failed' &&
        /U\+0000/.test(problem.detail ?? '') &&
        JSON.stringify(problem.errors).includes(JSON.stringify(one.field).slice(1, -1)) &&
        JSON.stringify(problem.errors).includes(one.field === 'path' ? 'NUL' : NUL_MESSAGE);
      if (!ok) failures.push(`${one.name}: ${response.status} ${text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('says where in the body it is', async () => {
    const response = await request('POST', '/v1/profiles', {
      headers: JSON_HEADERS,
      body: JSON.stringify(withNulAt(BODIES['POST /v1/profiles'], 'fingerprint.user_agent')),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      detail: `Invalid body: fingerprint.user_agent: ${NUL_MESSAGE}`,
      errors: [{ path: 'fingerprint.user_agent', message: NUL_MESSAGE }],
    });
  });
});

/** Follows a run with the long poll until it ends. */
async function finished(run: AutomationRun): Promise<AutomationRun> {
  let current = run;
  const deadline = Date.now() + 60_000;
  while (!['succeeded', 'failed', 'cancelled'].includes(current.status) && Date.now() < deadline) {
    current = await api.getRun(run.id, { wait: 10, after_version: current.version });
  }
  return current;
}

describe('U+0000 in what a page gives a run', () => {
  it('keeps the run’s output, with U+FFFD where each NUL was', async () => {
    const profile = await api.createProfile({ name: 'NUL page' });
    const nul = 'String.fromCharCode(0)';
    const run = await api.runAutomation({
      profile_id: profile.id,
      script: {
        steps: [
          {
            action: 'evaluate',
            expression: `document.body.innerHTML = '<p id="text"></p>'; document.getElementById('text').textContent = 'page' + ${nul} + 'text'`,
          },
          { action: 'extract', selector: '#text', name: 'extracted' },
          { action: 'evaluate', expression: `'a' + ${nul} + 'b'`, name: 'value' },
          { action: 'evaluate', expression: `({ ['key' + ${nul}]: [${nul}, '\\\\u0000'] })`, name: 'nested' },
        ],
      },
    });
    const final = await finished(run);
    expect(final.error).toBeNull();
    expect(final.status).toBe('succeeded');
    expect(final.output).toEqual({
      extracted: 'page\uFFFDtext',
      value: 'a\uFFFDb',
      // The six characters \u0000 on the page stay as they were.
      nested: { 'key\uFFFD': ['\uFFFD', '\\u0000'] },
    });
    expect(final.steps.map((step) => step.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
  });

  it('keeps the step’s error when the page throws one holding NUL', async () => {
    const profile = await api.createProfile({ name: 'NUL error' });
    const run = await api.runAutomation({
      profile_id: profile.id,
      script: {
        steps: [
          { action: 'evaluate', expression: `'kept'`, name: 'before' },
          {
            action: 'evaluate',
            expression: `(() => { throw new Error('bad' + String.fromCharCode(0) + 'news') })()`,
          },
        ],
      },
    });
    const final = await finished(run);
    expect(final.status).toBe('failed');
    expect(final.error).toMatch(/^Step 2 \(evaluate .*\) failed: bad\uFFFDnews\.$/);
    expect(final.steps[1]?.error).toBe(final.error);
    expect(final.output).toEqual({ before: 'kept' });
  });
});
