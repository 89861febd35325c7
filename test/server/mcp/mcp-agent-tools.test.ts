import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentSite, REPORT } from '../../support/agent-page';
import type { TestService } from '../../support/harness';
import {
  call,
  connect,
  downloadsIn,
  httpTransport,
  ok,
  placeIn,
  refOf,
  snapshotOf,
  startPageSession,
  textOf,
} from '../../support/mcp-client';
import { openPageToolsSuite, type PageToolsSuite } from '../../support/page-tools-suite';

/*
 * The page tools of Agents II, each on a real page served on loopback in a real session's browser, and what the
 * page shows after it; then each refused for another account's session and for a stopped one.
 */

let suite: PageToolsSuite;
let service: TestService;
let site: PageToolsSuite['site'];
let client: Client;
let key: string;
let session_id: string;

beforeAll(async () => {
  suite = await openPageToolsSuite(agentSite, 'Agent tools');
  ({
    service,
    site,
    client,
    key,
    session: { id: session_id },
  } = suite);
});

afterAll(() => suite?.close());

async function openPage(): Promise<string> {
  await ok(client, 'browser_navigate', { session_id, url: `${site.origin}/form` });
  return snapshotOf(client, session_id);
}

async function refusal(name: string, args: Record<string, unknown>, by = client): Promise<string> {
  const result = await call(by, name, { session_id, ...args });
  expect(result.isError, textOf(result)).toBe(true);
  return textOf(result);
}

const textOfPage = async (id: string) =>
  JSON.parse(
    textOf(
      await call(client, 'browser_evaluate', {
        session_id,
        expression: `document.getElementById('${id}').textContent`,
      }),
    ),
  ) as unknown;

const base64 = (text: string) => Buffer.from(text).toString('base64');

describe('Agents II page tools on a real page', () => {
  it('a confirm() waits for browser_handle_dialog, every answer shows it, and other actions are refused meanwhile', async () => {
    const snapshot = await openPage();
    const clicked = await call(client, 'browser_click', {
      session_id,
      ref: refOf(snapshot, 'button', 'Send'),
    });
    expect(textOf(clicked)).toContain('A confirm dialog is open: "Send the form?"');
    expect(textOf(await call(client, 'browser_snapshot', { session_id }))).toContain(
      'A confirm dialog is open',
    );
    expect(await refusal('browser_press_key', { key: 'a' })).toContain(
      'The page does nothing else until then',
    );
    expect(textOf(await call(client, 'browser_handle_dialog', { session_id, accept: false }))).toContain(
      'Dismissed the confirm dialog.',
    );
    expect(await textOfPage('out')).toBe('Not sent');
    expect(await refusal('browser_handle_dialog', { accept: true })).toBe(
      'No dialog is open in the agent’s tab.',
    );
  });

  it('an alert raised while a page loads: browser_navigate answers that it is open, and once handled the page is there', async () => {
    const navigated = await call(client, 'browser_navigate', { session_id, url: `${site.origin}/alert` });
    expect(navigated.isError, textOf(navigated)).toBeFalsy();
    expect(textOf(navigated)).toContain('An alert dialog is open: "Welcome"');
    expect(textOf(await call(client, 'browser_handle_dialog', { session_id, accept: true }))).toContain(
      'Accepted the alert dialog.',
    );
    await ok(client, 'browser_wait_for', { session_id, text: 'Loaded after the alert' });
    expect(await snapshotOf(client, session_id)).toContain('Loaded after the alert');
  });

  it('browser_file_upload gives the caller’s bytes to a file input; a file over 512 KB is refused', async () => {
    let snapshot = await openPage();
    await ok(client, 'browser_type', { session_id, ref: refOf(snapshot, 'textbox', 'Name'), text: 'Ada' });
    const upload = await call(client, 'browser_file_upload', {
      session_id,
      ref: refOf(snapshot, 'button', 'Photo'),
      files: [{ name: '../../etc/avatar.txt', base64: base64('pixels') }],
    });
    expect(placeIn(upload).url).toBe(`${site.origin}/form`);
    snapshot = await snapshotOf(client, session_id);
    await call(client, 'browser_click', { session_id, ref: refOf(snapshot, 'button', 'Send') });
    await ok(client, 'browser_handle_dialog', { session_id, accept: true });
    await ok(client, 'browser_wait_for', { session_id, text: 'Sent Ada' });
    expect(await textOfPage('out')).toBe('Sent Ada with avatar.txt (text/plain): pixels');

    // A button that opens a file chooser takes the files too.
    await ok(client, 'browser_file_upload', {
      session_id,
      ref: refOf(snapshot, 'button', 'Choose avatar'),
      files: [{ name: 'me.png', base64: base64('png') }],
    });
    expect(await textOfPage('chosen')).toBe('Avatar me.png');

    const big = Buffer.alloc(600 * 1024, 7).toString('base64');
    expect(
      await refusal('browser_file_upload', {
        ref: refOf(snapshot, 'button', 'Photo'),
        files: [{ name: 'big.bin', base64: big }],
      }),
    ).toBe('"big.bin" is 600 KB, over the 512 KB a file may have.');
    expect(
      await refusal('browser_file_upload', {
        ref: refOf(snapshot, 'button', 'Photo'),
        files: [{ name: 'x', base64: '%%' }],
      }),
    ).toContain('not base64');
  });

  it('browser_console_messages and browser_network_requests read the newest, secrets redacted', async () => {
    // The form was sent above: its console line and its request are the newest.
    const consoleText = textOf(await call(client, 'browser_console_messages', { session_id, limit: 5 }));
    expect(consoleText).toContain('[log] form sent by Ada');
    const network = textOf(await call(client, 'browser_network_requests', { session_id, headers: true }));
    expect(network).toContain(`GET ${site.origin}/api?token=%5Bredacted%5D&page=2 → 200`);
    expect(network).toContain('> authorization: [redacted]');
    expect(network).toContain('> x-trace: visible-42');
    expect(network).not.toContain('s3cret');
    expect(network).not.toContain('abc123');
    // Narrowed to what failed, or to one address, the list holds only those.
    const failed = textOf(
      await call(client, 'browser_network_requests', { session_id, failed_only: true, url_includes: '/api' }),
    );
    expect(failed).toMatch(/^0 newest requests \(failed to addresses with "\/api"\)/);
    const only = textOf(
      await call(client, 'browser_network_requests', { session_id, url_includes: '/api?' }),
    );
    expect(
      only
        .split('\n')
        .slice(1)
        .every((line) => line.includes('/api?')),
    ).toBe(true);
  });

  it('browser_hover shows a menu, browser_history goes back and forward', async () => {
    const snapshot = await openPage();
    expect(snapshot).not.toContain('Pricing');
    await ok(client, 'browser_hover', { session_id, ref: refOf(snapshot, 'button', 'Menu') });
    const menu = await snapshotOf(client, session_id);
    await ok(client, 'browser_click', { session_id, ref: refOf(menu, 'link', 'Pricing') });
    await ok(client, 'browser_wait_for', { session_id, text: 'Pricing' });
    expect(placeIn(await call(client, 'browser_history', { session_id, go: 'back' })).url).toBe(
      `${site.origin}/form`,
    );
    expect(placeIn(await call(client, 'browser_history', { session_id, go: 'forward' })).url).toBe(
      `${site.origin}/second`,
    );
  });

  it('browser_click double-clicks with a modifier; browser_drag drops one element onto another', async () => {
    const snapshot = await openPage();
    const ref = (text: string) => {
      const line = snapshot.split('\n').find((entry) => entry.includes(text));
      return /\[ref=([a-z0-9]+)\]/.exec(line ?? '')?.[1] as string;
    };
    await ok(client, 'browser_click', {
      session_id,
      ref: ref('Not double-clicked'),
      double: true,
      modifiers: ['Shift'],
    });
    expect(await textOfPage('dbl')).toBe('Double-clicked with Shift');
    await ok(client, 'browser_drag', { session_id, ref: ref('Drag me'), to_ref: ref('Drop here') });
    expect(await textOfPage('drop')).toBe('Dropped');
  });

  it('a download waited for is listed and read back, by MCP and by API; another account gets 404', async () => {
    const snapshot = await openPage();
    await ok(client, 'browser_click', { session_id, ref: refOf(snapshot, 'link', 'Download report') });
    const waited = await call(client, 'browser_wait_for', { session_id, download: true });
    const [download] = downloadsIn(waited);
    expect(download).toMatchObject({
      name: 'report.txt',
      outcome: `${REPORT.length} bytes`,
      content_type: 'text/plain',
    });
    const listed = await call(client, 'session_downloads', { session_id });
    expect(listed.structuredContent).toBeUndefined();
    expect(downloadsIn(listed)).toEqual([{ ...download }]);
    const read = await call(client, 'session_downloads', { session_id, file_id: download?.id });
    expect(read.content[1]).toMatchObject({
      type: 'resource',
      resource: { mimeType: 'text/plain', text: REPORT },
    });

    const api = (path: string, apiKey = key) =>
      fetch(`${service.baseUrl}/v1/sessions/${session_id}/downloads${path}`, {
        headers: { Authorization: `Bearer ${apiKey}` },
      });
    const list = await api('');
    expect(list.status).toBe(200);
    expect((await list.json()).data).toEqual([
      expect.objectContaining({ id: download?.id, name: 'report.txt' }),
    ]);
    const file = await api(`/${download?.id}`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="report.txt"; filename*=UTF-8''report.txt`,
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await file.text()).toBe(REPORT);
    expect((await api('/../../Cookies')).status).toBe(404);
    expect((await api('/00000000-0000-0000-0000-000000000000')).status).toBe(404);

    const strangerKey = await service.createKey('free');
    expect((await api('', strangerKey)).status).toBe(404);
    expect((await api(`/${download?.id}`, strangerKey)).status).toBe(404);
  });
});

const NEW_TOOLS: [string, Record<string, unknown>][] = [
  ['browser_hover', { ref: 'e1' }],
  ['browser_drag', { ref: 'e1', to_ref: 'e2' }],
  ['browser_history', { go: 'back' }],
  ['browser_handle_dialog', { accept: true }],
  ['browser_file_upload', { ref: 'e1', files: [{ name: 'a.txt', base64: base64('a') }] }],
  ['browser_console_messages', {}],
  ['browser_network_requests', {}],
  ['browser_wait_for', { download: true }],
];

describe('Agents II tools refused', () => {
  it('for another account’s session, every new tool and the downloads', async () => {
    const stranger = await connect(httpTransport(service.baseUrl, await service.createKey('free')));
    try {
      for (const [name, args] of [...NEW_TOOLS, ['session_downloads', {}] as const])
        expect(await refusal(name, args, stranger), name).toBe('There is no session with this id.');
    } finally {
      await stranger.close();
    }
  });

  it('for a stopped session, every new page tool; its downloads stay listed', async () => {
    const { id } = await startPageSession(client, 'Stopped agent tools');
    await ok(client, 'stop_session', { session_id: id });
    for (const [name, args] of NEW_TOOLS) {
      const result = await call(client, name, { session_id: id, ...args });
      expect(textOf(result), name).toMatch(/^The session is stopped; start the profile's session again\.$/);
    }
    expect(textOf(await call(client, 'session_downloads', { session_id: id }))).toBe('0 downloads.');
  });
});
