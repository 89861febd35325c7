import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ok, refOf, snapshotOf, textOf } from '../../support/mcp-client';
import { openPageToolsSuite, type PageToolsSuite } from '../../support/page-tools-suite';

/*
 * Two agents (two MCP connections, each with its Mcp-Session-Id) in one session's browser, and the tabs its pages
 * open: each agent works in tabs of its own, sharing the browser, its cookies and its profile, and a tab a page
 * opens is the agent's to list, select and read.
 */

const PAGES: Record<string, string> = {
  '/a': `<!doctype html><title>A</title><h1>Page A</h1><button onclick="document.title = prompt('Name?')">Ask</button>`,
  '/b': '<!doctype html><title>B</title><h1>Page B</h1>',
  '/opener': `<!doctype html><title>Opener</title>
    <a href="/popup?link" target="_blank">Link</a>
    <button onclick="window.open('/popup?script')">Script</button>
    <form action="/popup" target="_blank"><input name="form" value="1" aria-label="Form field"><button>Send form</button></form>
    <a href="/popup?middle">Middle</a>`,
  '/popup': '<!doctype html><title>Popup</title><h1>Popped</h1>',
};

let suite: PageToolsSuite;
let site: PageToolsSuite['site'];
let first: Client;
let second: Client;
let session_id: string;

beforeAll(async () => {
  suite = await openPageToolsSuite(
    (path) => PAGES[path.split('?')[0] ?? ''] ?? PAGES['/popup'] ?? '',
    'Shared',
    2,
  );
  ({
    site,
    session: { id: session_id },
  } = suite);
  [first, second] = suite.clients as [Client, Client];
}, 120_000);

afterAll(() => suite?.close());

const tabsOf = async (client: Client) =>
  textOf(await call(client, 'browser_tabs', { session_id, action: 'list' }));

describe('two agents in one session', () => {
  it('each works in a tab of its own: its page, its dialog, its refs', async () => {
    await ok(first, 'browser_navigate', { session_id, url: `${site.origin}/a` });
    await ok(second, 'browser_navigate', { session_id, url: `${site.origin}/b` });
    const a = await snapshotOf(first, session_id);
    expect(a).toContain('Page A');
    expect(await snapshotOf(second, session_id)).toContain('Page B');
    expect(await tabsOf(second)).toMatch(/^0: \(current\) http:\S+\/b \(B\)$/);

    // A dialog in one agent's tab holds that tab only.
    await call(first, 'browser_click', { session_id, ref: refOf(a, 'button', 'Ask') });
    expect(textOf(await call(first, 'browser_snapshot', { session_id }))).toContain(
      'A prompt dialog is open',
    );
    expect(await snapshotOf(second, session_id)).toContain('Page B');
    await ok(first, 'browser_handle_dialog', { session_id, accept: true, prompt_text: 'Ada' });
    expect(await tabsOf(first)).toMatch(/^0: \(current\) http:\S+\/a \(Ada\)$/);
  });
});

describe('tabs a page opens', () => {
  const identityOf = async (client: Client) =>
    JSON.parse(
      textOf(
        await call(client, 'browser_evaluate', {
          session_id,
          expression: '[navigator.userAgent, navigator.hardwareConcurrency]',
        }),
      ),
    ) as unknown;

  it('a link with target=_blank, a form’s target, a middle click and window.open each open a tab that loads, the agent’s to list, select and read', async () => {
    await ok(first, 'browser_navigate', { session_id, url: `${site.origin}/opener` });
    const opener = await snapshotOf(first, session_id);
    const identity = await identityOf(first);
    await ok(first, 'browser_click', { session_id, ref: refOf(opener, 'link', 'Link') });
    await expect.poll(() => tabsOf(first), { timeout: 15_000 }).toMatch(/1: \S+\/popup\?link \(Popup\)$/m);
    await ok(first, 'browser_click', { session_id, ref: refOf(opener, 'button', 'Send form') });
    await expect.poll(() => tabsOf(first), { timeout: 15_000 }).toMatch(/2: \S+\/popup\?form=1 \(Popup\)$/m);
    await ok(first, 'browser_click', { session_id, ref: refOf(opener, 'link', 'Middle'), button: 'middle' });
    await expect.poll(() => tabsOf(first), { timeout: 15_000 }).toMatch(/3: \S+\/popup\?middle \(Popup\)$/m);
    await ok(first, 'browser_click', { session_id, ref: refOf(opener, 'button', 'Script') });
    await expect.poll(() => tabsOf(first), { timeout: 15_000 }).toMatch(/4: \S+\/popup\?script \(Popup\)$/m);
    // The other agent's tabs are not among them, nor these among its.
    expect(await tabsOf(first)).not.toContain('/b');
    expect(await tabsOf(second)).not.toContain('/popup');

    // A tab opened without its opener (a link's target) still presents the profile's identity.
    await ok(first, 'browser_tabs', { session_id, action: 'select', index: 1 });
    expect(await snapshotOf(first, session_id)).toContain('Popped');
    expect(await identityOf(first)).toEqual(identity);
    await ok(first, 'browser_tabs', { session_id, action: 'select', index: 0 });
    const again = await snapshotOf(first, session_id);
    // The popups took the front of the window; the agent's tab still takes a click.
    await ok(first, 'browser_click', { session_id, ref: refOf(again, 'link', 'Middle') });
    expect(await snapshotOf(first, session_id)).toContain('Popped');
  });
});
