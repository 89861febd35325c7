import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_HEADERS, requester, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import {
  call,
  connect,
  dataOf,
  httpTransport,
  ok,
  refOf,
  serveFormPage,
  stdioTransport,
  textOf,
  treeOf,
} from '../../support/mcp-client';

const TOOLS = [
  'list_profiles',
  'get_profile',
  'create_profile',
  'update_profile',
  'delete_profile',
  'bulk_profiles',
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
  'browser_hover',
  'browser_drag',
  'browser_history',
  'browser_handle_dialog',
  'browser_file_upload',
  'browser_console_messages',
  'browser_find',
  'browser_network_requests',
  'session_downloads',
  'request_human',
];

const IDLE_S = 4;

let service: TestService;
let site: { url: string; close(): Promise<void> };
let pageUrl: string;
let key: string;
let strangerKey: string;

beforeAll(async () => {
  site = await serveFormPage();
  pageUrl = site.url;
  // The page is on loopback, which sessions reach only when the operator allows it. Sessions nobody uses stop
  // after 4 s, so that a test can tell that an agent's use counts.
  service = await startServiceInProcess({
    env: { EGRESS_ALLOW: 'loopback', SESSION_IDLE_TIMEOUT: String(IDLE_S) },
  });
  [key, strangerKey] = await Promise.all([service.createKey('free'), service.createKey('free')]);
});

afterAll(async () => {
  await service?.close();
  await site?.close();
});

/** What an agent does: a profile, its browser, a form filled by refs, a screenshot, and the session stopped. */
async function fillTheForm(
  client: Client,
  label: string,
): Promise<{ sessionId: string; transcript: string[] }> {
  const transcript: string[] = [];
  const step = async (name: string, args: Record<string, unknown>) => {
    const result = await call(client, name, args);
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    // No tool declares an output schema: each answer is said once, in its content.
    expect(result.structuredContent, name).toBeUndefined();
    transcript.push(
      `→ ${name} ${JSON.stringify(args)}`,
      `← ${textOf(result).split('\n').slice(0, 12).join('\n   ')}`,
    );
    return result;
  };
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
  const profile = dataOf(await step('create_profile', { name: `Agent ${label}` })) as { id: string };
  const session = dataOf(await step('start_session', { profile_id: profile.id, headless: true })) as {
    id: string;
    status: string;
  };
  expect(session.status).toBe('running');
  const session_id = session.id;
  await step('browser_navigate', { session_id, url: pageUrl });
  const before = treeOf(await step('browser_snapshot', { session_id }));
  const field = refOf(before, 'textbox', 'Email');
  const button = refOf(before, 'button', 'Sign up');
  await step('browser_type', { session_id, ref: field, text: 'ada@example.com' });
  await step('browser_click', { session_id, ref: button });
  expect(treeOf(await step('browser_snapshot', { session_id }))).toContain('Welcome, ada@example.com');

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
    const client = await connect(httpTransport(service.baseUrl, key));
    const stranger = await connect(httpTransport(service.baseUrl, strangerKey));
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
    // A script in the same session, waited for; cookies in and out of its running browser.
    const run = await call(client, 'run_script', {
      session_id: sessionId,
      script: {
        steps: [
          { action: 'goto', url: pageUrl },
          { action: 'extract', selector: 'button', name: 'label' },
          { action: 'screenshot', name: 'form' },
        ],
      },
    });
    expect(dataOf(run)).toMatchObject({ status: 'succeeded', output: { label: 'Sign up' } });
    // The screenshot comes as an image the client can show, not only as the API address it cannot open.
    const image = run.content.find((part) => part.type === 'image');
    expect(image?.type === 'image' && Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe(
      'PNG',
    );
    const sessions = (await ok(client, 'list_sessions', { status: 'running', detail: true })) as {
      data: { id: string; profile_id: string }[];
    };
    const profileId = sessions.data.find((session) => session.id === sessionId)?.profile_id;
    const expires = Math.floor(Date.now() / 1000) + 3600;
    expect(
      await ok(client, 'set_cookies', {
        profile_id: profileId,
        cookies: [{ name: 'agent', value: 'was-here', domain: '127.0.0.1', expires }],
      }),
    ).toMatchObject({ imported: 1 });
    const { cookies } = (await ok(client, 'get_cookies', { profile_id: profileId })) as {
      cookies: { name: string; value: string }[];
    };
    expect(cookies).toContainEqual(expect.objectContaining({ name: 'agent', value: 'was-here' }));

    const stopped = await ok(client, 'stop_session', { session_id: sessionId });
    expect(stopped.status).toBe('stopped');
    const afterStop = await call(client, 'browser_snapshot', { session_id: sessionId });
    expect(afterStop.isError).toBe(true);
    expect(textOf(afterStop)).toMatch(/stopped; start the profile's session again/);
    await Promise.all([client.close(), stranger.close()]);
  });

  it('manages proxies and profiles with the API’s own rules and sentences', async () => {
    const client = await connect(httpTransport(service.baseUrl, key));
    const proxy = await ok(client, 'create_proxy', {
      name: 'Office',
      scheme: 'http',
      host: 'proxy.example',
      port: 8080,
    });
    const profile = await ok(client, 'create_profile', { name: 'Shop', tags: ['eu'] });
    const changed = await ok(client, 'update_profile', {
      profile_id: profile.id,
      changes: { proxy_id: proxy.id },
    });
    expect(changed).toEqual({ id: profile.id, changed: ['proxy_id'], applies_at_next_start: false });
    expect((await ok(client, 'get_profile', { profile_id: profile.id })).proxy_id).toBe(proxy.id);
    const listed = textOf(await call(client, 'list_profiles', { tag: 'eu' })).split('\n');
    expect(listed).toEqual([
      '1 of 1 profiles. This is the last page.',
      `${profile.id} · "Shop" · idle · #eu · proxy ${proxy.id} · never used`,
    ]);
    // No proxy answers there: the check says why, as POST /v1/proxies/:id/check does.
    expect(await ok(client, 'check_proxy', { proxy_id: proxy.id })).toMatchObject({
      ok: false,
      reason: expect.any(String),
    });
    const invalid = await call(client, 'create_profile', {
      name: 'Both',
      proxy: 'http://a.example:1',
      proxy_id: proxy.id,
    });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toMatch(/give either proxy or proxy_id, not both/);
    expect(await ok(client, 'delete_profile', { profile_id: profile.id })).toEqual({ deleted: profile.id });
    expect(textOf(await call(client, 'delete_profile', { profile_id: profile.id }))).toBe(
      'There is no profile with this id.',
    );
    await client.close();
  });

  it('acts on many profiles in one call with bulk_profiles, as POST /v1/profiles/bulk does', async () => {
    const client = await connect(httpTransport(service.baseUrl, key));
    const ids: string[] = [];
    for (const name of ['Bulk A', 'Bulk B'])
      ids.push((await ok(client, 'create_profile', { name })).id as string);
    const bulk = async (args: Record<string, unknown>) => textOf(await call(client, 'bulk_profiles', args));
    expect((await bulk({ action: 'add_tags', select: { ids }, tags: ['bulk'] })).split('\n')).toEqual([
      'add_tags on 2 profiles: 2 succeeded, 0 failed.',
      `${ids[0]} · "Bulk A" · done`,
      `${ids[1]} · "Bulk B" · done`,
    ]);
    expect(textOf(await call(client, 'list_profiles', { tag: 'bulk' }))).toMatch(/^2 of 2 profiles\./);
    expect(await bulk({ action: 'delete', select: { filter: { tag: 'bulk' } } })).toMatch(
      /^delete on 2 profiles: 2 succeeded, 0 failed\./,
    );
    expect(await bulk({ action: 'stop', select: { ids: [ids[0]] } })).toBe(
      `stop on 1 profiles: 0 succeeded, 1 failed.\n${ids[0]} · failed: There is no profile with this id.`,
    );
    const unknown = Array.from({ length: 7 }, (_, n) => `prf_unknown${n}`);
    expect((await bulk({ action: 'stop', select: { ids: unknown } })).split('\n')).toEqual([
      'stop on 7 profiles: 0 succeeded, 7 failed.',
      ...unknown.slice(0, 5).map((id) => `${id} · failed: There is no profile with this id.`),
      '7 failed: There is no profile with this id.',
      '2 more failed profiles are not listed in items: each problem says how many met it and names the first 5.',
    ]);
    const cookies = await call(client, 'bulk_profiles', { action: 'export_cookies', select: { ids } });
    expect([cookies.isError, textOf(cookies)]).toEqual([
      true,
      'Read cookies with get_cookies, one profile at a time.',
    ]);
    await client.close();
  });

  it('answers 401 problem+json without a key or with a bad one, and 405 to GET', async () => {
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
    // Stateless: no stream to open and no session to end.
    const get = await fetch(`${service.baseUrl}/v1/mcp`, { headers: { Authorization: `Bearer ${key}` } });
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    const client = new Client({ name: 'no-key', version: '1' });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL('/v1/mcp', service.baseUrl))),
    ).rejects.toThrow(/401/);
  });

  it('counts each tool call as one request of the hourly limit, and not the protocol around them', async () => {
    const freeKey = await service.createKey('free');
    const seen: (string | null)[] = [];
    const client = await connect(httpTransport(service.baseUrl, freeKey, seen));
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

/** What a page of 50 profiles may cost an agent's context, in characters (tools-list.test.ts holds the list's). */
const PROFILE_PAGE_BUDGET = 6_000;

describe('answers an agent can afford', () => {
  it('lists 500 profiles in pages of one line each, and answers writes with what changed', async () => {
    const premiumKey = await service.createKey('premium');
    const request = requester(service.baseUrl, premiumKey);
    for (let start = 0; start < 500; start += 25) {
      await Promise.all(
        Array.from({ length: 25 }, async (_, offset) => {
          const index = start + offset;
          const body = { name: `Shop ${index}`, tags: index % 2 ? ['team-a', 'eu'] : ['team-b'] };
          const response = await request('POST', '/v1/profiles', {
            body: JSON.stringify(body),
            headers: JSON_HEADERS,
          });
          expect(response.status).toBe(201);
        }),
      );
    }
    const client = await connect(httpTransport(service.baseUrl, premiumKey));
    const seen = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await call(client, 'list_profiles', cursor ? { cursor } : {});
      const [heading = '', ...lines] = textOf(page).split('\n');
      expect(
        JSON.stringify(page.content).length + JSON.stringify(page.structuredContent ?? '').length,
      ).toBeLessThanOrEqual(PROFILE_PAGE_BUDGET + 500);
      expect(textOf(page).length).toBeLessThanOrEqual(PROFILE_PAGE_BUDGET);
      expect(heading).toMatch(new RegExp(`^${lines.length} of 500 profiles\\. `));
      for (const line of lines) seen.add(line.split(' · ')[0] ?? '');
      cursor = /cursor "([^"]+)"/.exec(heading)?.[1];
      pages += 1;
    } while (cursor);
    expect([pages, seen.size]).toEqual([10, 500]);

    const tagged = textOf(await call(client, 'list_profiles', { tag: 'team-a', limit: 3 })).split('\n');
    expect(tagged[0]).toMatch(/^3 of 250 profiles\. More: call again with cursor "/);
    expect(tagged[1]).toMatch(/^prf_\S+ · "Shop \d+" · idle · #team-a #eu · never used$/);

    const created = await call(client, 'create_profile', { name: 'Shop 500', identity_preset: 'laptop' });
    expect(JSON.stringify(created).length).toBeLessThan(300);
    // What was made, as compact JSON said once: its id and name, not the whole profile.
    expect(created).toEqual({
      content: [{ type: 'text', text: expect.stringMatching(/^\{"id":"prf_\w+","name":"Shop 500"\}$/) }],
    });
    const id = dataOf(created).id as string;
    // Said once: the object is the answer's text, not repeated as structured content.
    const read = await call(client, 'get_profile', { profile_id: id });
    expect([read.structuredContent, read.content.length]).toEqual([undefined, 1]);
    // As compact JSON: no indentation or line breaks to pay for.
    expect(textOf(read)).toBe(JSON.stringify(JSON.parse(textOf(read))));
    const full = await ok(client, 'get_profile', { profile_id: id });
    expect(full).toMatchObject({ id, name: 'Shop 500', status: 'idle', identity: expect.any(Object) });
    // A field with nothing in it (no proxy, no session, never used) is left out, not said as null.
    expect(textOf(read)).not.toContain('null');
    for (const field of ['proxy', 'proxy_id', 'session_id', 'last_used_at', 'held_by'])
      expect(full, field).not.toHaveProperty(field);
    await client.close();
  });
});

describe('an agent’s use of a session', () => {
  it('keeps it from going idle, while a session nobody uses stops as idle', async () => {
    const client = await connect(httpTransport(service.baseUrl, await service.createKey('free')));
    const [used, unused] = await Promise.all(
      ['Used', 'Unused'].map(async (name) => {
        const profile = await ok(client, 'create_profile', { name });
        return (await ok(client, 'start_session', { profile_id: profile.id, headless: true })).id as string;
      }),
    );
    await ok(client, 'browser_snapshot', { session_id: used });
    const listed = async (id: string | undefined) => {
      const { data } = (await ok(client, 'list_sessions', { detail: true })) as {
        data: { id: string; status: string; stop_reason: string | null }[];
      };
      return data.find((session) => session.id === id);
    };
    // Past the idle timeout for both; the unused one is then waited for, as a loaded machine may sweep it late.
    await new Promise((resolve) => setTimeout(resolve, (IDLE_S + 3) * 1000));
    await expect
      .poll(() => listed(unused), { timeout: 30_000, interval: 500 })
      .toMatchObject({ status: 'stopped', stop_reason: 'idle' });
    expect((await listed(used))?.status).toBe('running');
    await ok(client, 'stop_session', { session_id: used });
    await client.close();
  }, 120_000);
});

describe('MCP over stdio (npm run mcp)', () => {
  it('relays the same journey to the service', async () => {
    const client = await connect(stdioTransport(service.baseUrl, key));
    const { sessionId } = await fillTheForm(client, 'stdio');
    expect((await ok(client, 'stop_session', { session_id: sessionId })).status).toBe('stopped');
    await client.close();
  });
});
