import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ok, placeIn, refOf, snapshotOf, textOf } from '../../support/mcp-client';
import { openPageToolsSuite, type PageToolsSuite } from '../../support/page-tools-suite';

/*
 * The page tools the sign-up journey of mcp.test.ts does not use, each on a real page served on loopback, in a
 * real session's browser: what the page shows after the call (its own script writes its state into the page),
 * and one refusal each, a tool error with a sentence.
 */

/** An order form whose script writes what it holds, the last key pressed and slow results into the page. */
const ORDER_PAGE = `<!doctype html><title>Order</title>
<label>Full name <input id="who"></label>
<label><input type="checkbox" id="news"> Newsletter</label>
<fieldset><legend>Colour</legend>
  <label><input type="radio" name="colour" value="red"> Red</label>
  <label><input type="radio" name="colour" value="blue"> Blue</label>
</fieldset>
<label>Size <select id="size"><option value="s">Small</option><option value="l">Large</option></select></label>
<label>Toppings <select id="toppings" multiple>
  <option value="ham">Ham</option><option value="olive">Olives</option><option value="egg">Egg</option>
</select></label>
<p id="state"></p><p id="keys">No key yet</p><p id="results">No results</p>
<button id="search">Search</button>
<script>
  const $ = (id) => document.getElementById(id);
  const show = () => {
    const colour = document.querySelector('[name=colour]:checked');
    const toppings = [...$('toppings').selectedOptions].map((option) => option.value).join('+');
    $('state').textContent = 'Order: ' + $('who').value + ', news ' + $('news').checked + ', colour ' +
      (colour ? colour.value : 'none') + ', size ' + $('size').value + ', toppings ' + (toppings || 'none');
  };
  document.addEventListener('input', show);
  document.addEventListener('change', show);
  show();
  document.addEventListener('keydown', (event) => { $('keys').textContent = 'Last key: ' + event.key; });
  let searches = 0;
  $('search').onclick = () => {
    const loading = document.createElement('p');
    loading.textContent = 'Searching…';
    document.body.append(loading);
    setTimeout(() => { loading.remove(); searches += 1; $('results').textContent = 'Search ' + searches + ' found 3'; }, 1500);
  };
</script>`;

const SECOND_PAGE = '<!doctype html><title>Basket</title><h1>Your basket</h1>';

let suite: PageToolsSuite;
let origin: string;
let client: Client;
let session_id: string;
let cdpUrl: string;

beforeAll(async () => {
  // The pages are on loopback, which sessions reach only when the operator allows it.
  suite = await openPageToolsSuite((path) => (path === '/basket' ? SECOND_PAGE : ORDER_PAGE), 'Page tools');
  ({
    client,
    site: { origin },
    session: { id: session_id, cdpUrl },
  } = suite);
});

afterAll(() => suite?.close());

/** Opens the order page afresh and answers its snapshot (whose refs the next call uses). */
async function openOrder(): Promise<string> {
  await ok(client, 'browser_navigate', { session_id, url: `${origin}/order` });
  return snapshotOf(client, session_id);
}

async function refusal(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await call(client, name, { session_id, ...args });
  expect(result.isError, textOf(result)).toBe(true);
  return textOf(result);
}

/** The address of every tab of the session's browser, as a client of its `cdp_url` sees them. */
async function tabAddresses(): Promise<string[]> {
  const browser = await chromium.connectOverCDP(cdpUrl);
  try {
    return browser.contexts().flatMap((context) => context.pages().map((page) => page.url()));
  } finally {
    await browser.close();
  }
}

describe('MCP page tools on a real page', () => {
  it('leaves the tab where it was when a navigation fails, and says where it is', async () => {
    await openOrder();
    // 0.0.0.0/8 is outside every range the network policy allows here: the relay refuses it unconnected.
    const asked = Date.now();
    expect(await refusal('browser_navigate', { url: 'http://0.0.0.0:9/' })).toContain(
      `The tab stays at ${origin}/order.`,
    );
    // Well under the 10 s it took while going back waited for a load event the back-forward cache never fires.
    expect(Date.now() - asked).toBeLessThan(8_000);
    const snapshot = await snapshotOf(client, session_id);
    expect(placeIn(await call(client, 'browser_snapshot', { session_id }))).toEqual({
      url: `${origin}/order`,
      title: 'Order',
    });
    // The page it went back to is one whose refs resolve.
    await ok(client, 'browser_type', {
      session_id,
      ref: refOf(snapshot, 'textbox', 'Full name'),
      text: 'Ada',
    });
    expect(await snapshotOf(client, session_id)).toContain('Order: Ada,');
  });

  it('says the address and title once in each answer, as text alone', async () => {
    const answers = [
      await call(client, 'browser_navigate', { session_id, url: `${origin}/order` }),
      await call(client, 'browser_snapshot', { session_id }),
      await call(client, 'browser_find', { session_id, text: 'Newsletter' }),
      await call(client, 'browser_press_key', { session_id, key: 'Tab' }),
      await call(client, 'browser_tabs', { session_id, action: 'list' }),
    ];
    for (const answer of answers) {
      expect(answer).toEqual({ content: [{ type: 'text', text: expect.any(String) }] });
      expect(textOf(answer).split(`${origin}/order`), textOf(answer)).toHaveLength(2);
      expect(textOf(answer).split('(Order)'), textOf(answer)).toHaveLength(2);
    }
  });

  it('browser_fill_form fills a textbox, a checkbox, a radio and a combobox in one call', async () => {
    const snapshot = await openOrder();
    await ok(client, 'browser_fill_form', {
      session_id,
      fields: [
        { ref: refOf(snapshot, 'textbox', 'Full name'), name: 'Full name', type: 'textbox', value: 'Ada' },
        { ref: refOf(snapshot, 'checkbox', 'Newsletter'), type: 'checkbox', value: 'true' },
        { ref: refOf(snapshot, 'radio', 'Blue'), type: 'radio', value: 'true' },
        { ref: refOf(snapshot, 'combobox', 'Size'), type: 'combobox', value: 'Large' },
      ],
    });
    expect(await snapshotOf(client, session_id)).toContain(
      'Order: Ada, news true, colour blue, size l, toppings none',
    );
    expect(
      await refusal('browser_fill_form', {
        fields: [{ ref: 'e999', name: 'Phone', type: 'textbox', value: '1' }],
      }),
    ).toBe('"Phone" (ref e999) is not in the latest snapshot; take a new snapshot and use its refs.');
    expect(
      await refusal('browser_fill_form', {
        fields: [{ ref: refOf(snapshot, 'combobox', 'Size'), type: 'combobox', value: 'Huge' }],
      }),
    ).toBe('browser_fill_form failed: the select has no option “Huge” (it has “Small”, “Large”).');
  });

  it('browser_select_option chooses options by value and by label', async () => {
    const toppings = refOf(await openOrder(), 'listbox', 'Toppings');
    const answer = await call(client, 'browser_select_option', {
      session_id,
      ref: toppings,
      values: ['ham', 'Egg'],
    });
    expect(textOf(answer)).toMatch(/^Selected ham, egg\./);
    expect(await snapshotOf(client, session_id)).toContain('toppings ham+egg');
    // At once, where Playwright would wait its whole timeout for the option to appear, and with the options there are.
    const asked = Date.now();
    expect(await refusal('browser_select_option', { ref: toppings, values: ['Anchovies', 'Egg'] })).toBe(
      'browser_select_option failed: the select has no option “Anchovies” (it has “Ham”, “Olives”, “Egg”).',
    );
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(await snapshotOf(client, session_id)).toContain('toppings ham+egg');
  });

  it('browser_press_key presses a key in the page', async () => {
    await openOrder();
    await ok(client, 'browser_press_key', { session_id, key: 'Escape' });
    expect(await snapshotOf(client, session_id)).toContain('Last key: Escape');
    await ok(client, 'browser_press_key', { session_id, key: 'q' });
    expect(await snapshotOf(client, session_id)).toContain('Last key: q');
    expect(await refusal('browser_press_key', { key: 'NoSuchKey' })).toMatch(
      /^browser_press_key failed: Unknown key: "NoSuchKey"\.$/,
    );
  });

  it('browser_wait_for waits for text to appear, text to go, and time to pass', async () => {
    const search = refOf(await openOrder(), 'button', 'Search');
    await ok(client, 'browser_click', { session_id, ref: search });
    await ok(client, 'browser_wait_for', { session_id, text: 'Search 1 found 3' });
    expect(await snapshotOf(client, session_id)).toContain('Search 1 found 3');

    await ok(client, 'browser_click', { session_id, ref: search });
    await ok(client, 'browser_wait_for', { session_id, text_gone: 'Searching…' });
    const after = await snapshotOf(client, session_id);
    expect(after).toContain('Search 2 found 3');
    expect(after).not.toContain('Searching…');

    const started = Date.now();
    await ok(client, 'browser_wait_for', { session_id, time: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await refusal('browser_wait_for', {})).toBe('Give text, text_gone, time or download to wait for.');
  });

  it('browser_evaluate answers an expression’s value from the page, a promise awaited', async () => {
    await openOrder();
    expect(
      await ok(client, 'browser_evaluate', {
        session_id,
        expression: "document.getElementById('state').textContent",
      }),
    ).toBe('Order: , news false, colour none, size s, toppings none');
    // The value as JSON, said once: no structured content repeating it.
    expect(
      await call(client, 'browser_evaluate', {
        session_id,
        expression: 'new Promise((resolve) => setTimeout(() => resolve({ answer: 6 * 7 }), 100))',
      }),
    ).toEqual({ content: [{ type: 'text', text: '{"answer":42}' }] });
    await ok(client, 'browser_evaluate', { session_id, expression: "document.title = 'Changed by agent'" });
    expect(placeIn(await call(client, 'browser_snapshot', { session_id })).title).toBe('Changed by agent');
    expect(
      await refusal('browser_evaluate', { expression: "(() => { throw new Error('no such order') })()" }),
    ).toMatch(/no such order/);
  });

  it('browser_tabs lists, opens, selects and closes the browser’s tabs', async () => {
    await openOrder();
    // One line a tab, `index: URL (Title)`, the current one marked: `1: (current) URL (Title)`.
    const tabs = async (args: Record<string, unknown>) => {
      const result = await call(client, 'browser_tabs', { session_id, ...args });
      expect(result).toEqual({ content: [{ type: 'text', text: expect.any(String) }] });
      const lines = textOf(result).split('\n');
      const current = lines.filter((line) => line.includes(': (current) '));
      expect(current).toHaveLength(1);
      const [index = '', , url] = (current[0] as string).split(' ');
      return { count: lines.length, index: Number.parseInt(index, 10), url };
    };
    const order = await tabs({ action: 'list' });
    expect(order.url).toBe(`${origin}/order`);

    const basket = await tabs({ action: 'new', url: `${origin}/basket` });
    expect(basket).toEqual({ count: order.count + 1, index: order.count, url: `${origin}/basket` });
    expect(await tabAddresses()).toContain(`${origin}/basket`);
    expect(await snapshotOf(client, session_id)).toContain('heading "Your basket"');

    await ok(client, 'browser_tabs', { session_id, action: 'select', index: order.index });
    expect(await snapshotOf(client, session_id)).toContain('checkbox "Newsletter"');

    await ok(client, 'browser_tabs', { session_id, action: 'close', index: basket.index });
    expect(await tabAddresses()).not.toContain(`${origin}/basket`);
    expect(await refusal('browser_tabs', { action: 'select', index: 50 })).toBe(
      'There is no tab 50; list the tabs to see their numbers.',
    );
  });
});
