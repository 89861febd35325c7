import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { withoutRelayTraces } from '../../../server/browser/relay-traces';
import type { RunningBrowser } from '../../../server/sessions/launch-browser';
import {
  launchLoopbackBrowser,
  makeTempDir,
  relayDevtools,
  relayPortOf,
  startAuthenticatingProxy,
  startPageServer,
} from '../../support/browser-fixtures';

/* The attack: a cdp_url client enables Network, loads pages through the session's relay (directly, and through a
   profile proxy that wants credentials), and reads every event and answer it is sent. The relay's secret, its
   Proxy-Authorization header and its address reach the browser's network stack in every request, but never the
   client (docs/security.md). */

let pages: Awaited<ReturnType<typeof startPageServer>>;
let proxy: Awaited<ReturnType<typeof startAuthenticatingProxy>>;
const folders: ReturnType<typeof makeTempDir>[] = [];
const browsers: RunningBrowser[] = [];
const closers: (() => Promise<void>)[] = [];

beforeAll(async () => {
  pages = await startPageServer();
  proxy = await startAuthenticatingProxy('profile-user', 'profile-pass');
}, 30_000);

afterAll(async () => {
  // Clients first: the DevTools server closes once its sockets have.
  for (const close of closers.reverse()) await close().catch(() => {});
  for (const browser of browsers) await browser.stop();
  await Promise.all([pages?.close(), proxy?.close()]);
  for (const folder of folders) folder.remove();
});

/** A session's browser, its cdp_url, and its relay's port as its command line names it. */
async function session(withProxy: boolean) {
  const folder = makeTempDir('relay-secret-');
  folders.push(folder);
  const browser = await launchLoopbackBrowser(folder.path, {
    proxy: withProxy
      ? {
          scheme: 'http',
          host: '127.0.0.1',
          port: proxy.port,
          username: 'profile-user',
          password: 'profile-pass',
        }
      : null,
  });
  browsers.push(browser);
  const devtools = await relayDevtools(browser);
  closers.push(devtools.close);
  return { url: devtools.url, relayPort: relayPortOf(browser) };
}

/** A raw DevTools client that keeps every message it is sent, as text, and tells `on` listeners of each. */
async function rawClient(url: string) {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((opened, failed) => socket.once('open', opened).once('error', failed));
  closers.push(async () => void socket.terminate());
  const texts: string[] = [];
  const listeners = new Set<(message: Record<string, unknown>) => void>();
  socket.on('message', (data) => {
    texts.push(data.toString());
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    for (const listener of [...listeners]) listener(message);
  });
  const on = (listener: (message: Record<string, unknown>) => void) => listeners.add(listener);
  const until = (test: (message: Record<string, unknown>) => boolean) =>
    new Promise<Record<string, unknown>>((found) => {
      const look = (message: Record<string, unknown>) => {
        if (!test(message)) return;
        listeners.delete(look);
        found(message);
      };
      on(look);
    });
  let lastId = 0;
  const send = async (method: string, params: Record<string, unknown> = {}, sessionId?: string) => {
    const id = ++lastId;
    const answered = until((message) => message.id === id && message.sessionId === sessionId);
    socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    const answer = await answered;
    if (answer.error) throw new Error(JSON.stringify(answer.error));
    return answer.result as Record<string, unknown>;
  };
  return { texts, send, on, until };
}

/** Loads a page and, from it, a GET and a POST request, with Network (extra info included) and Fetch on. */
async function loadWithNetworkOn(url: string) {
  const client = await rawClient(url);
  const { targetId } = await client.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await client.send('Target.attachToTarget', { targetId, flatten: true });
  const tab = sessionId as string;
  await client.send('Network.enable', {}, tab);
  await client.send('Page.enable', {}, tab);
  await client.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Response' }] }, tab);
  client.on((message) => {
    if (message.method !== 'Fetch.requestPaused' || message.sessionId !== tab) return;
    const { requestId } = message.params as { requestId: string };
    void client.send('Fetch.continueRequest', { requestId }, tab).catch(() => {});
  });
  const loaded = client.until(
    (message) => message.method === 'Page.loadEventFired' && message.sessionId === tab,
  );
  await client.send('Page.navigate', { url: `${pages.origin}/` }, tab);
  await loaded;
  const fetched = await client.send(
    'Runtime.evaluate',
    {
      expression: `Promise.all([fetch('/?plain'), fetch('/?post', { method: 'POST', body: 'x' })]).then((all) => all.map((r) => r.status).join())`,
      awaitPromise: true,
    },
    tab,
  );
  expect((fetched.result as { value: string }).value).toBe('200,200');
  // Extra info comes on its own schedule: wait until each of the three requests was told in full.
  const told = (method: string) =>
    client.texts.filter((text) => text.includes(`"method":"${method}"`)).length;
  const toldInFull = () =>
    told('Network.requestWillBeSentExtraInfo') >= 3 && told('Network.responseReceivedExtraInfo') >= 3;
  if (!toldInFull()) await client.until(toldInFull);
  return client.texts;
}

function expectNoTraceOfTheRelay(texts: string[], relayPort: number): void {
  const all = texts.join('\n');
  // The attack would have seen these: the header, its value, and the relay's address.
  expect(all).toContain('requestWillBeSentExtraInfo');
  expect(all).toContain('Network.responseReceivedExtraInfo');
  expect(all).not.toMatch(/proxy-authorization/i);
  for (const [, value = ''] of all.matchAll(/Basic ([A-Za-z0-9+/=]+)/g))
    expect(Buffer.from(value, 'base64').toString()).not.toMatch(/^session:/);
  expect(all).not.toContain(`127.0.0.1:${relayPort}`);
  expect(all).not.toMatch(new RegExp(`"remotePort":${relayPort}\\b`));
}

describe('a cdp_url client with Network on', () => {
  it('never sees the relay’s secret, its header or its address', async () => {
    const { url, relayPort } = await session(false);
    expectNoTraceOfTheRelay(await loadWithNetworkOn(url), relayPort);
  }, 60_000);

  it('never sees them either when the session goes out through a profile proxy', async () => {
    const { url, relayPort } = await session(true);
    expectNoTraceOfTheRelay(await loadWithNetworkOn(url), relayPort);
    expect(proxy.seen.some(({ authorized }) => authorized)).toBe(true);
  }, 60_000);
});

describe('withoutRelayTraces', () => {
  const password = 'the-secret';
  const basic = Buffer.from(`session:${password}`).toString('base64');
  const scrub = withoutRelayTraces({ proxyServer: 'http://127.0.0.1:4321', username: 'session', password });

  it('takes the header from headers in any place and case, and from headersText, leaving valid JSON', () => {
    for (const headers of [
      { A: '1', 'Proxy-Authorization': `Basic ${basic}`, B: '2' },
      { 'proxy-authorization': `Basic ${basic}`, B: '2' },
      { A: '1', 'PROXY-AUTHORIZATION': `Basic ${basic}` },
    ]) {
      const text = JSON.stringify({ method: 'Network.requestWillBeSentExtraInfo', params: { headers } });
      const { A, B } = headers as Record<string, string | undefined>;
      expect(JSON.parse(scrub(text) as string).params.headers).toEqual(JSON.parse(JSON.stringify({ A, B })));
    }
    const headersText = `GET http://a/ HTTP/1.1\r\nHost: a\r\nProxy-Authorization: Basic ${basic}\r\nAccept: */*\r\n\r\n`;
    const text = JSON.stringify({ params: { headersText } });
    expect(JSON.parse(scrub(text) as string).params.headersText).toBe(
      'GET http://a/ HTTP/1.1\r\nHost: a\r\nAccept: */*\r\n\r\n',
    );
  });

  it('takes the relay’s address from answers and names neither it nor the secret anywhere', () => {
    const answer = { url: 'http://a/', remoteIPAddress: '127.0.0.1', remotePort: 4321, status: 200 };
    const event = {
      method: 'Network.responseReceived',
      params: { response: answer, note: `${password} 127.0.0.1:4321` },
    };
    expect(JSON.parse(scrub(JSON.stringify(event)) as string)).toEqual({
      method: 'Network.responseReceived',
      params: { response: { url: 'http://a/', status: 200 }, note: '[redacted] [relay]' },
    });
  });

  it('takes them from a large message still in bytes when it carries the header, and passes the same bytes when not', () => {
    const headers = { 'Proxy-Authorization': `Basic ${basic}`, 'X-Large': 'x'.repeat(2 ** 20) };
    const carrying = Buffer.from(
      JSON.stringify({ method: 'Network.requestWillBeSentExtraInfo', params: { headers } }),
    );
    const scrubbed = scrub(carrying);
    expect(Buffer.isBuffer(scrubbed)).toBe(true);
    expect(Object.keys(JSON.parse(scrubbed.toString()).params.headers)).toEqual(['X-Large']);
    const plain = Buffer.from(JSON.stringify({ id: 1, result: { data: 'y'.repeat(2 ** 20) } }));
    expect(scrub(plain)).toBe(plain);
  });

  it('passes other messages as they are: another port whole, and a message naming nothing as the same text', () => {
    const otherPort = '{"method":"Network.responseReceived","params":{"response":{"remotePort":43210}}}';
    expect(scrub(otherPort)).toBe(otherPort);
    const text = '{"method":"Page.loadEventFired","params":{"timestamp":1}}';
    expect(scrub(text)).toBe(text);
  });
});
