import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../server/config';
import { type ServiceHandle, startService } from './harness';

/** The page an agent fills: a field and a button whose answer appears without leaving the page. */
const FORM_PAGE = `<!doctype html><title>Sign up</title>
<label>Email <input name="email"></label><button>Sign up</button><p id="out"></p>
<script>
  document.querySelector('button').onclick = () => {
    document.getElementById('out').textContent = 'Welcome, ' + document.querySelector('input').value;
  };
</script>`;

const TOOLS = [
  'list_profiles',
  'create_profile',
  'update_profile',
  'delete_profile',
  'list_proxies',
  'create_proxy',
  'check_proxy',
  'list_sessions',
  'start_session',
  'stop_session',
  'run_script',
  'get_cookies',
  'set_cookies',
  'browser_navigate',
  'browser_snapshot',
  'browser_click',
  'browser_type',
  'browser_fill_form',
  'browser_select_option',
  'browser_press_key',
  'browser_wait_for',
  'browser_take_screenshot',
  'browser_evaluate',
  'browser_tabs',
];

let service: ServiceHandle;
let site: Server;
let pageUrl: string;
let key: string;
let strangerKey: string;

beforeAll(async () => {
  site = createServer((_req, res) => res.setHeader('Content-Type', 'text/html').end(FORM_PAGE));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/signup`;
  // The page is on loopback, which sessions reach only when the operator allows it.
  service = await startService({ env: { EGRESS_ALLOW: 'loopback' } });
  [key, strangerKey] = await Promise.all([service.createKey('free'), service.createKey('free')]);
});

afterAll(async () => {
  await service?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

/** The RateLimit header of each response, as a client's fetch sees it. */
function httpTransport(apiKey: string, seen: (string | null)[] = []): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL('/v1/mcp', service.baseUrl), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      seen.push(response.headers.get('ratelimit'));
      return response;
    },
  });
}

function stdioTransport(apiKey: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(PROJECT_ROOT, 'server', 'mcp', 'stdio.ts'), '--url', service.baseUrl],
    env: { ...(process.env as Record<string, string>), PROFILE_PILOT_KEY: apiKey },
    cwd: PROJECT_ROOT,
    stderr: 'pipe',
  });
}

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The structured answer of a call that must succeed. */
async function ok(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await call(client, name, args);
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  return result.structuredContent as Record<string, unknown>;
}

function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The ref of the snapshot's line that names an element, e.g. `- textbox "Email" [ref=e3]`. */
function refOf(snapshot: string, role: string, name: string): string {
  const line = snapshot.split('\n').find((text) => text.includes(`${role} "${name}"`));
  const ref = line && /\[ref=([a-z0-9]+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" with a ref in:\n${snapshot}`);
  return ref;
}

/** What an agent does: a profile, its browser, a form filled by refs, a screenshot, and the session stopped. */
async function fillTheForm(
  client: Client,
  label: string,
): Promise<{ sessionId: string; transcript: string[] }> {
  const transcript: string[] = [];
  const step = async (name: string, args: Record<string, unknown>) => {
    const result = await call(client, name, args);
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    transcript.push(
      `→ ${name} ${JSON.stringify(args)}`,
      `← ${textOf(result).split('\n').slice(0, 12).join('\n   ')}`,
    );
    return result;
  };
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
  const profile = (await step('create_profile', { name: `Agent ${label}` })).structuredContent as {
    id: string;
  };
  const session = (await step('start_session', { profile_id: profile.id, headless: true }))
    .structuredContent as { id: string; status: string };
  expect(session.status).toBe('running');
  const session_id = session.id;
  await step('browser_navigate', { session_id, url: pageUrl });
  const before = (await step('browser_snapshot', { session_id })).structuredContent as { snapshot: string };
  const field = refOf(before.snapshot, 'textbox', 'Email');
  const button = refOf(before.snapshot, 'button', 'Sign up');
  await step('browser_type', { session_id, ref: field, element: 'Email field', text: 'ada@example.com' });
  await step('browser_click', { session_id, ref: button, element: 'Sign up button' });
  const after = (await step('browser_snapshot', { session_id })).structuredContent as { snapshot: string };
  expect(after.snapshot).toContain('Welcome, ada@example.com');

  // A ref of a page that has since changed is refused, never applied to whatever is there now.
  await ok(client, 'browser_navigate', { session_id, url: `${pageUrl}?again` });
  const stale = await call(client, 'browser_click', { session_id, ref: button });
  expect(stale.isError).toBe(true);
  expect(textOf(stale)).toMatch(/take a new snapshot/);

  const shot = await call(client, 'browser_take_screenshot', { session_id });
  const image = shot.content.find((part) => part.type === 'image');
  expect(image?.mimeType).toBe('image/png');
  expect(
    Buffer.from(image?.type === 'image' ? image.data : '', 'base64')
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');
  return { sessionId: session_id, transcript };
}

describe('MCP over Streamable HTTP at /v1/mcp', () => {
  it('lets an agent fill a form by refs, and keeps another account out of its session', async () => {
    const client = await connect(httpTransport(key));
    const stranger = await connect(httpTransport(strangerKey));
    const { sessionId, transcript } = await fillTheForm(client, 'http');
    if (process.env.MCP_TRANSCRIPT) console.log(transcript.join('\n'));

    for (const [name, args] of [
      ['browser_snapshot', { session_id: sessionId }],
      ['stop_session', { session_id: sessionId }],
    ] as const) {
      const refused = await call(stranger, name, args);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe('There is no session with this id.');
    }
    const stopped = await ok(client, 'stop_session', { session_id: sessionId });
    expect(stopped.status).toBe('stopped');
    const afterStop = await call(client, 'browser_snapshot', { session_id: sessionId });
    expect(afterStop.isError).toBe(true);
    expect(textOf(afterStop)).toMatch(/stopped; start the profile's session again/);
    await Promise.all([client.close(), stranger.close()]);
  });

  it('answers 401 problem+json without a key or with a bad one', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    });
    for (const authorization of [undefined, 'Bearer pp_live_not_a_key']) {
      const response = await fetch(`${service.baseUrl}/v1/mcp`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(authorization ? { Authorization: authorization } : {}),
        },
        body: initialize,
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(((await response.json()) as { code: string }).code).toBe('unauthorized');
    }
    const client = new Client({ name: 'no-key', version: '1' });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL('/v1/mcp', service.baseUrl))),
    ).rejects.toThrow(/401/);
  });

  it('counts each tool call as one request of the hourly limit, and not the protocol around them', async () => {
    const freeKey = await service.createKey('free');
    const seen: (string | null)[] = [];
    const client = await connect(httpTransport(freeKey, seen));
    const remaining = async () => {
      await ok(client, 'list_proxies', {});
      return Number(/r=(\d+)/.exec(seen.at(-1) ?? '')?.[1]);
    };
    const first = await remaining();
    expect(first).toBe(99);
    await client.listTools();
    await client.ping();
    expect(await remaining()).toBe(first - 1);
    expect(await remaining()).toBe(first - 2);
    // The rest of the hour's 100, then a refusal that says when to retry.
    for (let used = 3; used < 100; used++) await ok(client, 'list_profiles', { q: 'nothing' });
    const refused = await call(client, 'list_profiles', {});
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(
      /^The free plan allows 100 requests an hour; the next one is possible in \d+ (minutes|seconds)\.$/,
    );
    await client.close();
  });
});

describe('MCP over stdio (npm run mcp)', () => {
  it('relays the same journey to the service', async () => {
    const client = await connect(stdioTransport(key));
    const { sessionId } = await fillTheForm(client, 'stdio');
    expect((await ok(client, 'stop_session', { session_id: sessionId })).status).toBe('stopped');
    await client.close();
  });
});
