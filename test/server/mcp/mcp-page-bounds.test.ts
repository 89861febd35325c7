import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';
import {
  call,
  connect,
  httpTransport,
  ok,
  servePages,
  snapshotOf,
  startPageSession,
  textOf,
} from '../../support/mcp-client';

/*
 * The page tools against a page that fights back: it replaces what an in-page size check would use, makes its
 * title 30 MB, or never settles a promise. Every answer stays bounded, says what was cut, and the page stays usable.
 */

/** A page whose JSON.stringify answers 50 MB of valid JSON and whose Blob lies about sizes; a 30 MB title on demand. */
const HOSTILE_PAGE = `<!doctype html><title>Hostile</title><button onclick="document.title='T'.repeat(30e6)">Grow</button>
<script>
  const big = JSON.stringify('x'.repeat(50 * 2 ** 20));
  JSON.stringify = () => big;
  window.Blob = class { constructor() { this.size = 2; } };
</script>`;

const PLAIN_PAGE = '<!doctype html><title>Plain</title><p>Nothing to see</p>';

/** 1,500 rows, each with a button that writes which row was picked. */
const ROWS_PAGE = `<!doctype html><title>Rows</title><p id="picked">None picked</p><table><tbody>${Array.from(
  { length: 1500 },
  (_, i) =>
    `<tr><td>Order ${i}</td><td>${i % 7 === 0 ? 'late' : 'on time'}</td><td><button onclick="picked.textContent='Picked ${i}'">Pick ${i}</button></td></tr>`,
).join('')}</tbody></table>`;

/** All of the page's text in one element, 2 MB of it. */
const HUGE_PAGE = `<!doctype html><title>Huge</title><p>${'word '.repeat(400_000)}</p>`;

/** Console lines of each level, then (on /logs?again) one more after a navigation. */
const LOGS_PAGE = `<!doctype html><title>Logs</title><script>
  console.error('boom ' + location.search); console.warn('careful'); console.log('hello'); console.debug('details');
</script>`;

/** The most bytes any answer here may hold: the 1 MB output limit, said once, with room for its sentences. */
const ANSWER_BOUND = 2 ** 20 + 64 * 2 ** 10;

let service: TestService;
let site: Awaited<ReturnType<typeof servePages>>;
let origin: string;
let client: Client;
let apiKey: string;
let session_id: string;

beforeAll(async () => {
  const pages: Record<string, string> = {
    '/plain': PLAIN_PAGE,
    '/rows': ROWS_PAGE,
    '/huge': HUGE_PAGE,
    '/logs': LOGS_PAGE,
  };
  site = await servePages((path) => pages[path.split('?')[0] ?? ''] ?? HOSTILE_PAGE);
  origin = site.origin;
  // Evaluations are ended after 3 s here rather than the default 20 s: the same limit, sooner.
  service = await startServiceInProcess({ env: { EGRESS_ALLOW: 'loopback', EVALUATE_TIMEOUT: '3' } });
  apiKey = await service.createKey('enterprise');
  client = await connect(httpTransport(service.baseUrl, apiKey));
  session_id = (await startPageSession(client, 'Hostile pages')).id;
}, 120_000);

afterAll(async () => {
  if (session_id) await call(client, 'stop_session', { session_id });
  await client?.close();
  await service?.close();
  await site?.close();
});

/** A tool call's whole answer as JSON, and its size in bytes. */
async function answerBytes(
  name: string,
  args: Record<string, unknown>,
): Promise<{ bytes: number; text: string }> {
  const text = JSON.stringify(await call(client, name, { session_id, ...args }));
  return { bytes: Buffer.byteLength(text), text };
}

describe('MCP page answers are bounded in the service', () => {
  it('a page that replaces JSON.stringify and Blob cannot return 50 MB from browser_evaluate', async () => {
    await ok(client, 'browser_navigate', { session_id, url: `${origin}/hostile` });
    const answer = await answerBytes('browser_evaluate', { expression: '({ any: "thing" })' });
    expect(answer.bytes).toBeLessThan(ANSWER_BOUND);
    expect(answer.text).toMatch(/over the 1 MB an answer may carry/);
    const honest = await answerBytes('browser_evaluate', { expression: 'document.title' });
    expect(honest.bytes).toBeLessThan(ANSWER_BOUND);
  });

  it('a 30 MB document.title is cut, saying so, in snapshot, tabs and click answers', async () => {
    await ok(client, 'browser_navigate', { session_id, url: `${origin}/hostile` });
    const snapshot = await snapshotOf(client, session_id);
    const grow = /button "Grow" \[ref=(\w+)\]/.exec(snapshot)?.[1];
    const click = await answerBytes('browser_click', { ref: grow });
    expect(click.bytes).toBeLessThan(ANSWER_BOUND);
    expect(click.text).toMatch(/title cut: 30,000,000 characters, the first 1,000 shown/);
    for (const [name, args] of [
      ['browser_snapshot', {}],
      ['browser_tabs', { action: 'list' }],
      ['browser_press_key', { key: 'Tab' }],
    ] as const) {
      const answer = await answerBytes(name, args);
      expect(answer.bytes, name).toBeLessThan(64 * 2 ** 10);
      expect(answer.text, name).toMatch(/title cut: 30,000,000 characters, the first 1,000 shown/);
    }
  });
});

describe('a page read in parts', () => {
  it('browser_find answers the rows that hold a text, with refs that act, within 3,000 characters', async () => {
    await ok(client, 'browser_navigate', { session_id, url: `${origin}/rows` });
    const found = await answerBytes('browser_find', { text: 'Order 1234' });
    expect(found.bytes).toBeLessThan(4_000);
    const text = textOf(JSON.parse(found.text));
    expect(text).toContain('Order 1234');
    const pick = /button "Pick 1234" \[ref=(\w+)\]/.exec(text)?.[1];
    expect(pick, text).toBeDefined();
    await ok(client, 'browser_click', { session_id, ref: pick });
    expect(textOf(await call(client, 'browser_find', { session_id, text: 'Picked' }))).toContain(
      'Picked 1234',
    );

    // Many matches: the answer stays within its bound and says how many were left out.
    const many = textOf(await call(client, 'browser_find', { session_id, text: 'late' }));
    expect(many.length).toBeLessThanOrEqual(3_200);
    expect(many).toMatch(/\d+ left out: search for longer text/);
  });

  it('browser_snapshot reads the subtree under a ref, as deep as asked', async () => {
    const whole = await snapshotOf(client, session_id);
    const table = /table \[ref=(\w+)\]/.exec(whole)?.[1];
    const shallow = await snapshotOf(client, session_id, { ref: table, depth: 2 });
    expect(shallow.length).toBeLessThan(whole.length / 2);
    expect(shallow).not.toContain('button "Pick 5"');
    const lines = (await snapshotOf(client, session_id)).split('\n');
    const row = /row \[ref=(\w+)\]/.exec(
      lines[lines.findIndex((line) => line.includes('cell "Order 12"')) - 1] ?? '',
    )?.[1];
    expect(row).toBeDefined();
    const part = await snapshotOf(client, session_id, { ref: row });
    expect(part).toContain('button "Pick 12"');
    expect(part).not.toContain('Pick 13');
  });

  it('a page whose text is one huge element gives a snapshot, cut within its bound, saying how to read on', async () => {
    await ok(client, 'browser_navigate', { session_id, url: `${origin}/huge` });
    const answer = await answerBytes('browser_snapshot', {});
    expect(answer.bytes).toBeLessThan(ANSWER_BOUND);
    const text = textOf(JSON.parse(answer.text));
    expect(text).toContain('word word word');
    expect(text).toMatch(/cut at \d+ bytes: find elements with browser_find/);
  });

  it('browser_console_messages lists the level asked and worse, since the last navigation unless all', async () => {
    await ok(client, 'browser_navigate', { session_id, url: `${origin}/logs` });
    await ok(client, 'browser_navigate', { session_id, url: `${origin}/logs?again` });
    const errors = textOf(await call(client, 'browser_console_messages', { session_id, level: 'error' }));
    expect(errors).toContain('[error] boom ?again');
    expect(errors).not.toContain('careful');
    expect(errors).not.toMatch(/boom \n|boom $/m);
    const info = textOf(await call(client, 'browser_console_messages', { session_id }));
    expect(info).toContain('[warning] careful');
    expect(info).toContain('[log] hello');
    expect(info).not.toContain('details');
    const all = textOf(
      await call(client, 'browser_console_messages', { session_id, level: 'debug', all: true }),
    );
    expect(all.match(/\[error\] boom/g)?.length).toBe(2);
    expect(all).toContain('[debug] details');
  });
});

describe('browser_evaluate that never ends', () => {
  it('a promise that never settles times out with a clear error, and the next browser_snapshot works', async () => {
    await ok(client, 'browser_navigate', { session_id, url: `${origin}/plain` });
    const started = Date.now();
    const hung = await call(client, 'browser_evaluate', { session_id, expression: 'new Promise(() => {})' });
    expect(hung.isError).toBe(true);
    expect(textOf(hung)).toMatch(/did not finish within 3 s .*it was ended and the page is free/);
    expect(Date.now() - started).toBeLessThan(20_000);
    const next = Date.now();
    expect(textOf(await call(client, 'browser_snapshot', { session_id }))).toMatch(/^\S+ \(Plain\)\n/);
    expect(Date.now() - next).toBeLessThan(10_000);
  }, 60_000);

  it('a script that never yields is terminated, and the page answers again', async () => {
    const hung = await call(client, 'browser_evaluate', {
      session_id,
      expression: 'new Promise((resolve) => setTimeout(resolve, 10)).then(() => { for (;;) {} })',
    });
    expect(textOf(hung)).toMatch(/did not finish within 3 s/);
    expect(textOf(await call(client, 'browser_evaluate', { session_id, expression: '6 * 7' }))).toBe('42');
  }, 60_000);

  it('an evaluation its client abandons is ended, so the next call does not wait for it', async () => {
    const abandoned = new AbortController();
    const sent = fetch(new URL('/v1/mcp', service.baseUrl), {
      method: 'POST',
      signal: abandoned.signal,
      headers: {
        Authorization: `Bearer ${apiKey}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'browser_evaluate', arguments: { session_id, expression: 'new Promise(() => {})' } },
      }),
    }).catch(() => 'abandoned');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    abandoned.abort();
    expect(await sent).toBe('abandoned');
    const next = Date.now();
    expect(textOf(await call(client, 'browser_evaluate', { session_id, expression: '6 * 7' }))).toBe('42');
    expect(Date.now() - next).toBeLessThan(10_000);
  }, 60_000);
});
