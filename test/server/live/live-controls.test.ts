/** The live view's bar: its controls act on the watched tab for a controlling viewer, never for a view-only one. */
import { describe, expect, it, vi } from 'vitest';
import { addressesOf } from '../../../server/live/viewer-controls';
import { ANSWERS, fakeDevtools, fakeLink, startViewer } from './fake-live-browser';

const tick = () => new Promise((resolve) => setImmediate(resolve));

const TWO_TABS = {
  ...ANSWERS,
  'Target.getTargets': {
    targetInfos: [
      { targetId: 'T1', type: 'page', title: 'Blank', url: 'about:blank' },
      { targetId: 'T2', type: 'page', title: 'Agent', url: 'https://agent.example/' },
    ],
  },
  'Page.getNavigationHistory': { currentIndex: 0, entries: [{ id: 7, url: 'https://agent.example/' }] },
};

const CONTROLS = [
  { type: 'navigate', url: 'https://example.com/' },
  { type: 'go', step: -1 },
  { type: 'reload' },
  { type: 'stop' },
  { type: 'compose', text: 'にほ' },
];

describe('the live view’s controls', () => {
  it('opens on the tab an agent or run used last, not the first', async () => {
    const browser = fakeDevtools(TWO_TABS);
    const link = fakeLink();
    const viewer = await startViewer(browser.devtools, 'view', link, { activeTab: () => 'T2' });
    expect(link.sent.filter((message) => message.type === 'tabs').at(-1)).toMatchObject({ watching: 'T2' });
    const attached = browser.commands.filter((command) => command.method === 'Target.attachToTarget');
    expect(attached.map((command) => command.params?.targetId)).toEqual(['T2']);
    viewer.end();
  });

  it('navigates, goes back, reloads, composes and stops for a controlling viewer', async () => {
    const browser = fakeDevtools(TWO_TABS);
    const link = fakeLink();
    const stop = vi.fn(async () => {});
    const viewer = await startViewer(browser.devtools, 'control', link, { stop });
    for (const message of CONTROLS) viewer.receive(JSON.stringify(message));
    await vi.waitFor(() => expect(link.sent.some((message) => message.type === 'navigated')).toBe(true));
    const methods = browser.commands.map((command) => command.method);
    expect(methods).toEqual(
      expect.arrayContaining(['Page.navigate', 'Page.reload', 'Input.imeSetComposition']),
    );
    expect(browser.commands.find((command) => command.method === 'Page.navigate')?.params).toEqual({
      url: 'https://example.com/',
    });
    expect(link.sent.find((message) => message.type === 'navigated')).toEqual({
      type: 'navigated',
      refusal: null,
    });
    expect(stop).toHaveBeenCalledOnce();
    expect(link.closed).toEqual([]);
    viewer.end();
  });

  it('says why the egress policy refused an address, and goes back to the page the tab was on', async () => {
    const browser = fakeDevtools({
      ...TWO_TABS,
      'Page.navigate': { errorText: 'net::ERR_TUNNEL_CONNECTION_FAILED' },
    });
    const link = fakeLink();
    const refusal = 'The service’s network policy does not let this session reach 10.0.0.5.';
    const viewer = await startViewer(browser.devtools, 'control', link, {
      egressRefusalOf: (host) => (host === '10.0.0.5' ? refusal : null),
    });
    viewer.receive(JSON.stringify({ type: 'navigate', url: 'http://10.0.0.5/admin' }));
    // The fake tab's history never moves: the refusal is answered once the error page is no longer waited for.
    await vi.waitFor(() => expect(link.sent.find((message) => message.type === 'navigated')).toBeDefined(), {
      timeout: 5000,
    });
    expect(link.sent.find((message) => message.type === 'navigated')).toEqual({ type: 'navigated', refusal });
    viewer.receive(JSON.stringify({ type: 'navigate', url: 'javascript:alert(1)' }));
    await vi.waitFor(() =>
      expect(link.sent.filter((message) => message.type === 'navigated')[1]).toMatchObject({
        refusal: expect.stringMatching(/not a web address/),
      }),
    );
    expect(
      browser.commands.filter((command) => command.method === 'Page.navigate').map((c) => c.params?.url),
    ).toEqual(['http://10.0.0.5/admin']);
    viewer.end();
  });

  it('tells a refusal at the end of a redirect, or of a host written with a final dot, as a refusal', async () => {
    const refusal = 'The service’s network policy does not let this session reach 127.0.0.1.';
    const egressRefusalOf = (host: string) => (host === '127.0.0.1' || host === 'localhost' ? refusal : null);
    // The shop redirected to 127.0.0.1; the relay answered the browser 403, so the navigation itself succeeded.
    const redirected = fakeDevtools({
      ...TWO_TABS,
      'Page.getNavigationHistory': { currentIndex: 0, entries: [{ id: 7, url: 'http://127.0.0.1:9122/' }] },
    });
    const link = fakeLink();
    const viewer = await startViewer(redirected.devtools, 'control', link, { egressRefusalOf });
    viewer.receive(JSON.stringify({ type: 'navigate', url: 'http://shop.example/to-loopback' }));
    viewer.receive(JSON.stringify({ type: 'navigate', url: 'http://localhost.:9122/' }));
    await vi.waitFor(
      () => expect(link.sent.filter((message) => message.type === 'navigated')).toHaveLength(2),
      {
        timeout: 15_000,
      },
    );
    expect(link.sent.filter((message) => message.type === 'navigated')).toEqual([
      { type: 'navigated', refusal },
      { type: 'navigated', refusal },
    ]);
    viewer.end();
  });

  it.each(CONTROLS)(
    'refuses $type from a view-only viewer: closed, and nothing reaches the browser',
    async (message) => {
      const browser = fakeDevtools(TWO_TABS);
      const link = fakeLink();
      const stop = vi.fn(async () => {});
      const viewer = await startViewer(browser.devtools, 'view', link, { stop });
      const before = browser.commands.length;
      viewer.receive(JSON.stringify(message));
      await tick();
      expect(link.closed).toEqual([{ code: 1008, reason: expect.stringMatching(/view-only/) }]);
      expect(browser.commands.slice(before).map((command) => command.method)).toEqual([]);
      expect(stop).not.toHaveBeenCalled();
      viewer.end();
    },
  );

  it('reads a typed address as a person means it: https first for a public name, http for a local one', () => {
    const hrefs = (typed: string) => addressesOf(typed).map((url) => url.href);
    expect(hrefs('example.com')).toEqual(['https://example.com/', 'http://example.com/']);
    expect(hrefs('localhost:8080/x')).toEqual(['http://localhost:8080/x']);
    expect(hrefs('192.168.1.20')).toEqual(['http://192.168.1.20/']);
    expect(hrefs('printer.local')).toEqual(['http://printer.local/']);
    expect(hrefs('intranet/wiki')).toEqual(['http://intranet/wiki']);
    expect(hrefs(' http://a.example/b ')).toEqual(['http://a.example/b']);
    expect(hrefs('https://localhost:8443/')).toEqual(['https://localhost:8443/']);
    for (const refused of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'chrome://settings',
      'data:text/html,x',
    ])
      expect(addressesOf(refused)).toEqual([]);
  });

  it('opens a typed name over http when https is not served there', async () => {
    const browser = fakeDevtools({
      ...TWO_TABS,
      'Page.navigate': (params) =>
        String(params?.url).startsWith('https:') ? { errorText: 'net::ERR_SSL_PROTOCOL_ERROR' } : {},
    });
    const link = fakeLink();
    const viewer = await startViewer(browser.devtools, 'control', link);
    viewer.receive(JSON.stringify({ type: 'navigate', url: 'shop.example:8080' }));
    await vi.waitFor(() => expect(link.sent.find((message) => message.type === 'navigated')).toBeDefined());
    expect(link.sent.find((message) => message.type === 'navigated')).toEqual({
      type: 'navigated',
      refusal: null,
    });
    expect(
      browser.commands.filter((command) => command.method === 'Page.navigate').map((c) => c.params?.url),
    ).toEqual(['https://shop.example:8080/', 'http://shop.example:8080/']);
    viewer.end();
  });
});
