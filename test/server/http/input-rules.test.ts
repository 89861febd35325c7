/**
 * Inputs the service took wrongly, and rules the OpenAPI document did not say: a user agent with line breaks,
 * URL schemes in capitals, "exactly one of profile_id or session_id", and an empty cursor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import { endpoints } from '../../../lib/api/endpoints';
import { startPageServer } from '../../support/browser-fixtures';
import { JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let api: ApiClient;
let request: ReturnType<typeof requester>;
let site: Awaited<ReturnType<typeof startPageServer>>;

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  minLength?: number;
  pattern?: string;
  oneOf?: JsonSchema[];
  required?: string[];
};
type Parameter = { name: string; in: string; schema: JsonSchema; description?: string };
let document: {
  paths: Record<string, Record<string, { parameters?: (Parameter | { $ref: string })[] }>>;
  components: { schemas: Record<string, JsonSchema> };
};

beforeAll(async () => {
  site = await startPageServer();
  // Loopback pages and proxies stand in for the web here.
  service = await startServiceInProcess({ env: { EGRESS_ALLOW: 'loopback' } });
  const key = await service.createKey('enterprise');
  api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
  request = requester(service.baseUrl, key);
  document = await (await fetch(`${service.baseUrl}/v1/openapi.json`)).json();
});
afterAll(async () => {
  await service?.close();
  await site?.close();
});

const post = (path: string, body: unknown) =>
  request('POST', path, { headers: JSON_HEADERS, body: JSON.stringify(body) });

describe('fingerprint text', () => {
  it.each([
    [
      'user_agent',
      'Mozilla/5.0\r\nX-Injected: 1',
      'must not contain line breaks or other control characters',
    ],
    ['user_agent', 'Mozilla/5.0\nsecond line', 'must not contain line breaks or other control characters'],
    ['user_agent', 'Mozilla/5.0\tTabbed', 'must not contain line breaks or other control characters'],
    ['language', 'en-US\r\n', 'must be a language tag such as en-US'],
    ['timezone', 'Europe/Berlin\n', 'must be an IANA time zone such as Europe/Berlin'],
  ])(
    'refuses a %s with a control character (%j) with 422, and stores nothing',
    async (field, value, message) => {
      const before = (await api.listProfiles()).data.length;
      const response = await post('/v1/profiles', { name: 'Agent', fingerprint: { [field]: value } });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: `fingerprint.${field}`, message }],
      });
      expect((await api.listProfiles()).data.length).toBe(before);
    },
  );

  it('takes an ordinary user agent as it is', async () => {
    const agent =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
    const profile = await api.createProfile({ name: 'Agent', fingerprint: { user_agent: agent } });
    expect(profile.fingerprint.user_agent).toBe(agent);
  });
});

describe('URL schemes in capitals', () => {
  it('takes HTTP:// and SOCKS5:// in a profile’s proxy, and shows them in lower case', async () => {
    const http = await api.createProfile({ name: 'Upper', proxy: 'HTTP://user:secret@127.0.0.1:3128' });
    expect(http.proxy).toBe('http://user@127.0.0.1:3128');
    const socks = await api.createProfile({ name: 'Upper', proxy: 'Socks5://127.0.0.1:1080' });
    expect(socks.proxy).toBe('socks5://127.0.0.1:1080');
  });

  it('takes HTTP:// in a goto step, and the browser goes there', async () => {
    const profile = await api.createProfile({ name: 'Goto' });
    const upper = site.origin.replace('http://', 'HTTP://');
    const queued = await api.runAutomation({
      profile_id: profile.id,
      script: {
        steps: [
          { action: 'goto', url: `${upper}/` },
          { action: 'evaluate', expression: 'location.href', name: 'href' },
        ],
      },
    });
    let run = queued;
    const deadline = Date.now() + 60_000;
    while (!['succeeded', 'failed', 'cancelled'].includes(run.status) && Date.now() < deadline) {
      run = await api.getRun(run.id, { wait: 10, after_version: run.version });
    }
    expect(run.error).toBeNull();
    expect(run.output).toEqual({ href: `${site.origin}/` });
  });
});

describe('addresses that look like URLs but are none', () => {
  it.each([
    ['http://[fe80::1%25lo]/', 'must not hold an IPv6 zone id (the “%…” inside [ ])'],
    ['https://[1:2]/', 'is not a valid address'],
    ['http://999.1.1.1/', 'is not a valid address'],
  ])('refuses a goto to %s with 422 and queues no run', async (url, message) => {
    const profile = await api.createProfile({ name: 'Nowhere' });
    const response = await post('/v1/automation/run', {
      profile_id: profile.id,
      script: { steps: [{ action: 'goto', url }] },
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toBe(
      `Invalid body: script.steps[0].url: ${message}`,
    );
    expect((await api.listRuns({ profile_id: profile.id })).data).toEqual([]);
  });

  it.each([
    [
      '/v1/profiles',
      { name: 'p', proxy: 'http://[1:2]:8080' },
      'proxy: host [1:2] is not a valid host name or IP address',
    ],
    [
      '/v1/profiles',
      { name: 'p', proxy: 'http://999.1.1.1:8080' },
      'proxy: host 999.1.1.1 is not a valid host name or IP address',
    ],
    [
      '/v1/proxies',
      { name: 'p', scheme: 'http', host: '[1:2]', port: 8080 },
      'host: must be a host name or an IP address',
    ],
    [
      '/v1/proxies',
      { name: 'p', scheme: 'http', host: '999.1.1.1', port: 8080 },
      'host: must be a host name or an IP address',
    ],
  ])('refuses a proxy host that is no address (POST %s %j) with 422', async (path, body, detail) => {
    const response = await post(path, body);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toBe(`Invalid body: ${detail}`);
  });
});

/** Whether a JSON Schema of the document admits `value` as far as `oneOf`/`required` say (the rules tested). */
function oneOfAdmits(schema: JsonSchema, value: Record<string, unknown>): boolean {
  if (!schema.oneOf) return true;
  const matches = schema.oneOf.filter((branch) => (branch.required ?? []).every((field) => field in value));
  return matches.length === 1;
}

describe('the OpenAPI document and the service agree', () => {
  it('on "exactly one of profile_id or session_id" for POST /v1/automation/run', async () => {
    const schema = document.components.schemas.RunCreate as JsonSchema;
    expect(schema.oneOf).toEqual([{ required: ['profile_id'] }, { required: ['session_id'] }]);
    const script = { steps: [{ action: 'wait_for', ms: 0 }] };
    const bodies = [
      { script, profile_id: 'prf_unknown' },
      { script, session_id: 'ses_unknown' },
      { script, profile_id: 'prf_unknown', session_id: 'ses_unknown' },
      { script },
    ];
    for (const body of bodies) {
      const response = await post('/v1/automation/run', body);
      // Unknown ids are 404: the body was taken. 422 is the rule refusing it.
      const refused = response.status === 422;
      expect(refused, JSON.stringify(body)).toBe(!oneOfAdmits(schema, body));
      if (refused) {
        expect(await response.json()).toMatchObject({
          errors: [{ path: 'profile_id', message: 'give exactly one of profile_id or session_id' }],
        });
      }
    }
  });

  it('states the same rule for the other bodies that have one', () => {
    const { schemas } = document.components;
    expect(schemas.SessionStop?.oneOf).toEqual([{ required: ['session_id'] }, { required: ['profile_id'] }]);
    expect(schemas.ProfileCreate).toMatchObject({ not: { required: ['proxy', 'proxy_id'] } });
    const waitFor = JSON.stringify(schemas.Step);
    expect(waitFor).toContain('"oneOf":[{"required":["selector"]},{"required":["ms"]}]');
  });

  it('on an empty cursor: the first page, as for no cursor', async () => {
    await api.createProfile({ name: 'Listed' });
    for (const path of ['/v1/profiles', '/v1/proxies', '/v1/sessions', '/v1/automation/status']) {
      const parameter = (document.paths[path]?.get?.parameters ?? []).find(
        (one) => 'name' in one && one.name === 'cursor',
      ) as Parameter;
      expect(parameter.schema, path).toEqual({ type: 'string' });
      expect(parameter.description).toMatch(/empty: the first page/);
      const empty = await request('GET', `${path}?cursor=`);
      expect(empty.status, path).toBe(200);
      expect(await empty.json()).toEqual(await (await request('GET', path)).json());
    }
  });

  /** Whether a query parameter's schema admits the empty text. */
  function admitsEmpty(schema: JsonSchema): boolean {
    if (schema.enum) return schema.enum.includes('');
    if ((schema.minLength ?? 0) > 0) return false;
    if (schema.pattern !== undefined) return new RegExp(schema.pattern, 'u').test('');
    return true;
  }

  it('on an empty value of every text query parameter of every endpoint', async () => {
    const checked: string[] = [];
    for (const endpoint of Object.values(endpoints)) {
      const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
      const parameters = document.paths[path]?.[endpoint.method.toLowerCase()]?.parameters ?? [];
      for (const parameter of parameters) {
        // Numbers are read from text (an empty one as 0), and the document types them as integers.
        if (!('name' in parameter) || parameter.in !== 'query' || parameter.schema.type !== 'string')
          continue;
        const url = `${endpoint.path.replace(/:\w+/g, 'prf_unknown')}?${parameter.name}=`;
        const response = await request(endpoint.method, url);
        const refused = response.status === 422;
        checked.push(`${endpoint.method} ${url}: ${response.status}`);
        expect(refused, `${endpoint.method} ${url}`).toBe(!admitsEmpty(parameter.schema));
        if (refused) {
          const problem = await response.json();
          expect(JSON.stringify(problem.errors)).toContain(parameter.name);
        }
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(8);
  });
});
