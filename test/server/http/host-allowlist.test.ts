// DNS rebinding, tried as the attack: a web page whose domain now resolves to 127.0.0.1 reaches the service with
// its own name in Host (and Origin). The service answers only the names it is served as.
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from '../../../lib/api/client';
import { dashboardClient } from '../../support/dashboard-client';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let key: string;
let evil: string;

beforeAll(async () => {
  service = await startServiceInProcess({
    env: { PUBLIC_URL: 'https://pilot.example.com,http://10.9.8.7:9000' },
  });
  key = await service.createKey('enterprise');
  evil = `evil.example:${service.port}`;
});
afterAll(() => service.close());

interface Answer {
  status: number;
  type: string | undefined;
  body: string;
}

/** A request to the service's socket with the Host (and other headers) given: what a rebound page sends. */
function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: service.port, method, path, headers, setHost: false },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function expectMisdirected(answer: Answer) {
  expect(answer.status).toBe(421);
  expect(answer.type).toBe('application/problem+json');
  expect(JSON.parse(answer.body)).toMatchObject({ status: 421, code: 'misdirected_request' });
}

/** Opens a WebSocket with the Host given; resolves with the HTTP status it was refused with, or 101. */
function upgrade(url: string, host: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers: { Host: host } });
    socket.once('open', () => {
      socket.terminate();
      resolve(101);
    });
    socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.once('error', () => resolve(0));
  });
}

describe('a foreign Host', () => {
  it('is refused with 421 on /v1 even with a valid key, and on /healthz and the OpenAPI document', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    expectMisdirected(await send('GET', '/v1/profiles', { Host: evil, ...auth }));
    expectMisdirected(
      await send(
        'POST',
        '/v1/profiles',
        { Host: evil, ...auth, 'Content-Type': 'application/json' },
        JSON.stringify({ name: 'planted' }),
      ),
    );
    expectMisdirected(await send('GET', '/healthz', { Host: evil }));
    expectMisdirected(await send('GET', '/v1/openapi.json', { Host: evil }));
    expectMisdirected(await send('GET', '/dashboard', { Host: evil }));
    // A loopback name on another port, and a name that only starts like one, are foreign too.
    expectMisdirected(await send('GET', '/healthz', { Host: `127.0.0.1:${service.port + 1}` }));
    expectMisdirected(await send('GET', '/healthz', { Host: `localhost.evil.example:${service.port}` }));
    expectMisdirected(await send('GET', '/healthz', { Host: `127.0.0.1:${service.port}@evil.example` }));
    const profiles = await send('GET', '/v1/profiles', { Host: `127.0.0.1:${service.port}`, ...auth });
    expect(JSON.parse(profiles.body)).toMatchObject({ data: [] });
  });

  it('cannot sign up, nor use a dashboard sign-in with its own matching Origin', async () => {
    const signUp = JSON.stringify({ email: 'rebound@example.com', password: 'correct horse battery' });
    const json = { 'Content-Type': 'application/json' };
    expectMisdirected(
      await send('POST', '/dashboard/api/sign-up', { Host: evil, Origin: `http://${evil}`, ...json }, signUp),
    );

    const person = dashboardClient(service.baseUrl);
    expect(
      (
        await person.json('POST', '/sign-up', {
          email: 'person@example.com',
          password: 'correct horse battery',
        })
      ).status,
    ).toBe(201);
    const cookie = `pp_dashboard=${person.token}`;
    const asPage = { Host: evil, Origin: `http://${evil}`, Cookie: cookie, ...json };
    expectMisdirected(await send('POST', '/dashboard/api/keys', asPage, JSON.stringify({ name: 'stolen' })));
    expectMisdirected(await send('GET', '/dashboard/api/keys', asPage));
    expect((await person.json<{ data: unknown[] }>('GET', '/keys')).body.data).toEqual([]);
  });

  it('cannot call the MCP endpoint’s tools, even with a valid key', async () => {
    const createByTool = (host: string) =>
      send(
        'POST',
        '/v1/mcp',
        {
          Host: host,
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'create_profile', arguments: { name: `made through ${host}` } },
        }),
      );
    expectMisdirected(await createByTool(evil));
    // The same call under the service's own name is served: the refusal is the Host's alone.
    expect((await createByTool(`127.0.0.1:${service.port}`)).status).toBe(200);
    const client = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
    const names = (await client.listProfiles({ q: 'made through' })).data.map((profile) => profile.name);
    expect(names).toEqual([`made through 127.0.0.1:${service.port}`]);
  });

  it('cannot open the event stream, a session’s DevTools or its live view over a WebSocket', async () => {
    const client = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
    const eventsUrl = `${service.baseUrl.replace('http', 'ws')}/v1/events`;
    expect(await upgrade(eventsUrl, evil)).toBe(421);
    expect(await upgrade(eventsUrl, `127.0.0.1:${service.port}`)).toBe(101);

    const profile = await client.createProfile({ name: 'rebinding' });
    const session = await client.startSession({ profile_id: profile.id, headless: true });
    try {
      const cdpUrl = session.cdp_url as string;
      expect(await upgrade(cdpUrl, evil)).toBe(421);
      expect(await upgrade(cdpUrl, `localhost:${service.port}`)).toBe(101);
      // Nor the live view: its page, nor its socket, which takes the session's mouse and keyboard.
      const livePage = new URL(session.live_view_url as string);
      expectMisdirected(await send('GET', livePage.pathname, { Host: evil }));
      const liveSocket = `${livePage.href.replace(/^http/, 'ws')}/socket`;
      expect(await upgrade(liveSocket, evil)).toBe(421);
      expect(await upgrade(liveSocket, `localhost:${service.port}`)).toBe(101);
    } finally {
      await client.stopSession({ session_id: session.id });
    }
  });
});

describe('an absolute-form request target', () => {
  it('refuses a WebSocket upgrade that names no Host at all', async () => {
    const statusLine = await new Promise<string>((resolve, reject) => {
      const socket = connect(service.port, '127.0.0.1', () =>
        socket.write(
          'GET /v1/events HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
            'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
        ),
      );
      socket.once('data', (data) => {
        resolve(String(data).split('\r\n')[0] as string);
        socket.destroy();
      });
      socket.once('error', reject);
    });
    expect(statusLine).toMatch(/^HTTP\/1\.1 4(00|21) /);
  });

  it('names no host of the answer: cdp_url and the live view follow the checked Host, over HTTP and MCP', async () => {
    const client = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
    const profile = await client.createProfile({ name: 'absolute form' });
    const own = `127.0.0.1:${service.port}`;
    const headers = { Host: own, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const started = await send(
      'POST',
      'http://evil.test:9/v1/sessions/start',
      headers,
      JSON.stringify({ profile_id: profile.id, headless: true }),
    );
    expect(started.status, started.body).toBe(201);
    const session = JSON.parse(started.body) as { id: string; cdp_url: string; live_view_url: string };
    try {
      expect(new URL(session.cdp_url).host).toBe(own);
      expect(new URL(session.live_view_url).host).toBe(own);
      const listed = await send(
        'POST',
        'http://evil.test:9/v1/mcp',
        { ...headers, Accept: 'application/json, text/event-stream' },
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_sessions', arguments: { status: 'running', detail: true } },
        }),
      );
      expect(listed.status).toBe(200);
      const { data } = JSON.parse(JSON.parse(listed.body).result.content[0].text) as {
        data: { cdp_url: string }[];
      };
      expect(data.map((item) => new URL(item.cdp_url).host)).toEqual([own]);
    } finally {
      await client.stopSession({ session_id: session.id });
    }
  });
});

describe('the names the service is served as', () => {
  it('are its loopback names with its port and each PUBLIC_URL, with or without the default port', async () => {
    for (const host of [
      `127.0.0.1:${service.port}`,
      `localhost:${service.port}`,
      `LOCALHOST:${service.port}`,
      `[::1]:${service.port}`,
      'pilot.example.com',
      'pilot.example.com:443',
      '10.9.8.7:9000',
    ]) {
      expect({ host, status: (await send('GET', '/healthz', { Host: host })).status }).toEqual({
        host,
        status: 200,
      });
    }
    expectMisdirected(await send('GET', '/healthz', { Host: 'pilot.example.com:8443' }));
  });

  it('take the dashboard’s calls only from their own origins, not from whatever Host names', async () => {
    const body = JSON.stringify({ email: 'public@example.com', password: 'correct horse battery' });
    const json = { 'Content-Type': 'application/json' };
    const fromPublicPage = { Host: 'pilot.example.com', Origin: 'https://pilot.example.com', ...json };
    expect((await send('POST', '/dashboard/api/sign-up', fromPublicPage, body)).status).toBe(201);
    // A public name in Host, called from a page of an origin the service is not served at.
    const fromOtherPage = { ...fromPublicPage, Origin: 'https://pilot.example.com.evil.example' };
    const refused = await send('POST', '/dashboard/api/sign-up', fromOtherPage, body);
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'forbidden' });
  });
});

describe('/internal without a node’s credentials', () => {
  it('is 404 problem+json whatever the method, as if the path did not exist', async () => {
    for (const [method, path] of [
      ['GET', '/internal/sessions'],
      ['POST', '/internal/sessions'],
      ['GET', '/internal/runs/run_x/cancel'],
      ['POST', '/internal/runs/run_x/cancel'],
    ] as const) {
      const body = method === 'POST' ? '{}' : undefined;
      const json = { 'Content-Type': 'application/json' };
      const answer = await send(method, path, { Host: `127.0.0.1:${service.port}`, ...json }, body);
      expect({ method, path, status: answer.status, type: answer.type }).toEqual({
        method,
        path,
        status: 404,
        type: 'application/problem+json',
      });
      expect(JSON.parse(answer.body)).toMatchObject({
        code: 'not_found',
        detail: `There is nothing at ${path}.`,
      });
      expect(answer.body).not.toMatch(/POST|allowed/);
    }
  });
});
