import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSite, REPORT } from '../../support/agent-page';
import { JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import {
  call,
  connect,
  downloadsIn,
  httpTransport,
  ok,
  placeIn,
  refOf,
  servePages,
  snapshotOf,
  stdioTransport,
  textOf,
} from '../../support/mcp-client';

/*
 * An agent's whole journey with the official MCP SDK client, over Streamable HTTP and over stdio (`npm run mcp`):
 * 500 profiles listed in pages within the budget, one opened and started, a form filled with a confirm() and a
 * file upload, back and forward, a hover menu, a download read back, the console read, and the session stopped.
 */

/** What a page of 50 profiles may cost an agent's context, in characters. */
const PROFILE_PAGE_BUDGET = 6_000;
const PROFILES = 500;

let service: TestService;
let site: Awaited<ReturnType<typeof servePages>>;
let key: string;

beforeAll(async () => {
  site = await servePages(agentSite);
  service = await startServiceInProcess({ env: { EGRESS_ALLOW: 'loopback' } });
  key = await service.createKey('enterprise');
  const request = requester(service.baseUrl, key);
  for (let start = 0; start < PROFILES; start += 25)
    await Promise.all(
      Array.from({ length: 25 }, async (_, offset) => {
        const body = JSON.stringify({ name: `Shop ${start + offset}`, tags: ['shop'] });
        const response = await request('POST', '/v1/profiles', { body, headers: JSON_HEADERS });
        expect(response.status).toBe(201);
      }),
    );
}, 120_000);

afterAll(async () => {
  await service?.close();
  await site?.close();
});

/** Every page of list_profiles, each within the budget; answers the ids seen. */
async function listAll(client: Client): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await call(client, 'list_profiles', cursor ? { cursor } : {});
    expect(textOf(page).length).toBeLessThanOrEqual(PROFILE_PAGE_BUDGET);
    const [heading = '', ...lines] = textOf(page).split('\n');
    expect(heading).toMatch(new RegExp(`^${lines.length} of ${PROFILES} profiles\\. `));
    ids.push(...lines.map((line) => line.split(' · ')[0] ?? ''));
    cursor = /cursor "([^"]+)"/.exec(heading)?.[1];
  } while (cursor);
  return ids;
}

async function journey(transport: Transport, pick: number): Promise<void> {
  const client = await connect(transport);
  try {
    const ids = await listAll(client);
    expect(new Set(ids).size).toBe(PROFILES);
    const profile = await ok(client, 'get_profile', { profile_id: ids[pick] });
    expect(profile.identity).toEqual(expect.any(Object));
    const session = await ok(client, 'start_session', { profile_id: profile.id, headless: true });
    const session_id = session.id as string;

    await ok(client, 'browser_navigate', { session_id, url: `${site.origin}/second` });
    await ok(client, 'browser_navigate', { session_id, url: `${site.origin}/form` });
    let snapshot = await snapshotOf(client, session_id);
    await ok(client, 'browser_fill_form', {
      session_id,
      fields: [{ ref: refOf(snapshot, 'textbox', 'Name'), type: 'textbox', value: 'Grace' }],
    });
    await ok(client, 'browser_file_upload', {
      session_id,
      ref: refOf(snapshot, 'button', 'Photo'),
      files: [{ name: 'cv.txt', base64: Buffer.from('hello').toString('base64') }],
    });
    const sent = await call(client, 'browser_click', { session_id, ref: refOf(snapshot, 'button', 'Send') });
    expect(textOf(sent)).toContain('A confirm dialog is open: "Send the form?"');
    await ok(client, 'browser_handle_dialog', { session_id, accept: true });
    await ok(client, 'browser_wait_for', { session_id, text: 'Sent Grace with cv.txt (text/plain): hello' });

    expect(placeIn(await call(client, 'browser_history', { session_id, go: 'back' })).url).toBe(
      `${site.origin}/second`,
    );
    expect(placeIn(await call(client, 'browser_history', { session_id, go: 'forward' })).url).toBe(
      `${site.origin}/form`,
    );
    snapshot = await snapshotOf(client, session_id);
    await ok(client, 'browser_hover', { session_id, ref: refOf(snapshot, 'button', 'Menu') });
    expect(await snapshotOf(client, session_id)).toContain('link "Pricing"');

    await ok(client, 'browser_click', { session_id, ref: refOf(snapshot, 'link', 'Download report') });
    const [download] = downloadsIn(await call(client, 'browser_wait_for', { session_id, download: true }));
    const read = await call(client, 'session_downloads', { session_id, file_id: download?.id });
    expect(read.content[1]).toMatchObject({ type: 'resource', resource: { text: REPORT } });

    const consoleText = textOf(await call(client, 'browser_console_messages', { session_id, all: true }));
    expect(consoleText).toContain('[log] form sent by Grace');
    expect((await ok(client, 'stop_session', { session_id })).status).toBe('stopped');
  } finally {
    await client.close();
  }
}

describe('an agent’s journey with the MCP SDK client', () => {
  it('over Streamable HTTP', async () => {
    await journey(httpTransport(service.baseUrl, key), 7);
  });

  it('over stdio (npm run mcp)', async () => {
    await journey(stdioTransport(service.baseUrl, key), 123);
  });
});
