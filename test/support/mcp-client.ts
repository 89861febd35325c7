import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { PROJECT_ROOT } from '../../server/core/config';

/** The page an agent fills: a field and a button whose answer appears without leaving the page. */
const FORM_PAGE = `<!doctype html><title>Sign up</title>
<label>Email <input name="email"></label><button>Sign up</button><p id="out"></p>
<script>
  document.querySelector('button').onclick = () => {
    document.getElementById('out').textContent = 'Welcome, ' + document.querySelector('input').value;
  };
</script>`;

/** Serves HTML on loopback, each path's page from `pageOf`; resolves with its origin and a way to close it. */
export async function servePages(
  pageOf: (path: string) => string,
): Promise<{ origin: string; close(): Promise<void> }> {
  const site: Server = createServer((req, res) =>
    res.setHeader('Content-Type', 'text/html; charset=utf-8').end(pageOf(req.url ?? '/')),
  );
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    close: async () => {
      site.closeAllConnections();
      await new Promise((resolve) => site.close(resolve));
    },
  };
}

/** Serves the form on loopback; resolves with its address and a way to close it. */
export async function serveFormPage(): Promise<{ url: string; close(): Promise<void> }> {
  const site = await servePages(() => FORM_PAGE);
  return { url: `${site.origin}/signup`, close: site.close };
}

/** A running session of a new profile, for the page tools. */
export async function startPageSession(
  client: Client,
  name: string,
): Promise<{ id: string; cdpUrl: string }> {
  const profile = await ok(client, 'create_profile', { name });
  const session = await ok(client, 'start_session', { profile_id: profile.id, headless: true });
  return { id: session.id as string, cdpUrl: session.cdp_url as string };
}

/**
 * The SDK's own Streamable HTTP client transport with a key; `seen` collects each response's RateLimit header.
 * With `sessionId`, it is the same agent as the connection of that Mcp-Session-Id (its tabs, its refs).
 */
export function httpTransport(
  baseUrl: string,
  apiKey: string,
  seen: (string | null)[] = [],
  sessionId?: string,
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL('/v1/mcp', baseUrl), {
    ...(sessionId ? { sessionId } : {}),
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      seen.push(response.headers.get('ratelimit'));
      return response;
    },
  });
}

/** `npm run mcp` as an MCP client that speaks only stdio starts it: the relay to the service's /v1/mcp. */
export function stdioTransport(baseUrl: string, apiKey: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', path.join(PROJECT_ROOT, 'server', 'mcp', 'stdio.ts'), '--url', baseUrl],
    env: { ...(process.env as Record<string, string>), PROFILE_PILOT_KEY: apiKey },
    cwd: PROJECT_ROOT,
    stderr: 'pipe',
  });
}

export async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export function textOf(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** What an answer says as data: its structured content, or the object its text is (said once, as JSON). */
export function dataOf(result: CallToolResult): Record<string, unknown> {
  if (result.structuredContent) return result.structuredContent;
  try {
    return JSON.parse(textOf(result)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/**
 * Where a page tool's answer says its tab is, said once in its text: `Clicked e4. Now at URL (Title).`, or a
 * snapshot's or find's first line `URL (Title)`.
 */
export function placeIn(result: CallToolResult): { url: string; title: string } {
  const text = textOf(result);
  const line = /Now at (.+?)\.(?: |$)/m.exec(text)?.[1] ?? text.split('\n')[0] ?? '';
  const [, url = '', title = ''] = /^(\S+)(?: \((.*)\))?$/.exec(line) ?? [];
  return { url, title };
}

/** The downloads an answer lists, one a line: `id "name" type, size` (or `, state: error`). */
export function downloadsIn(
  result: CallToolResult,
): { id: string; name: string; content_type: string; outcome: string }[] {
  return [...textOf(result).matchAll(/^(\S+) ("(?:[^"\\]|\\.)*") (\S+), (.*)$/gm)].map(
    ([, id = '', name = '""', content_type = '', outcome = '']) => ({
      id,
      name: JSON.parse(name) as string,
      content_type,
      outcome,
    }),
  );
}

/** The data of a call that must succeed. */
export async function ok(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await call(client, name, args);
  expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
  return dataOf(result);
}

/** The ref of the snapshot's line that names an element, e.g. `- textbox "Email" [ref=e3]`. */
export function refOf(snapshot: string, role: string, name: string): string {
  const line = snapshot.split('\n').find((text) => text.includes(`${role} "${name}"`));
  const ref = line && /\[ref=([a-z0-9]+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ${role} "${name}" with a ref in:\n${snapshot}`);
  return ref;
}

/** The tree of a browser_snapshot answer's text (between its yaml fences). */
export function treeOf(result: CallToolResult): string {
  const text = textOf(result);
  return text.slice(text.indexOf('```yaml\n') + 8, text.lastIndexOf('\n```'));
}

export async function snapshotOf(
  client: Client,
  sessionId: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const result = await call(client, 'browser_snapshot', { session_id: sessionId, ...args });
  expect(result.isError, textOf(result)).toBeFalsy();
  return treeOf(result);
}
