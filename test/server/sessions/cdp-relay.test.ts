import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CdpMultiplexer } from '../../../server/browser/cdp-multiplexer';
import { type CdpMessage, CdpPipe } from '../../../server/browser/cdp-pipe';
import { checkCdpCommand } from '../../../server/browser/cdp-policy';
import { CdpTokens } from '../../../server/sessions/cdp-tokens';

/** A browser's end of the pipe: records what it is sent and answers what the test says. */
function fakeBrowser() {
  const toBrowser = new PassThrough();
  const fromBrowser = new PassThrough();
  const received: CdpMessage[] = [];
  let buffered = '';
  toBrowser.setEncoding('utf8');
  toBrowser.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end = buffered.indexOf('\0'); end >= 0; end = buffered.indexOf('\0')) {
      const message = JSON.parse(buffered.slice(0, end)) as CdpMessage;
      buffered = buffered.slice(end + 1);
      received.push(message);
      if (message.method === 'Target.attachToBrowserTarget')
        send({ id: message.id, result: { sessionId: `browser-session-${received.length}` } });
    }
  });
  const send = (message: CdpMessage) => fromBrowser.write(`${JSON.stringify(message)}\0`);
  return { pipe: new CdpPipe(toBrowser, fromBrowser), received, send };
}

async function client(mux: CdpMultiplexer) {
  const delivered: CdpMessage[] = [];
  const attached = await mux.attach(
    (text) => delivered.push(JSON.parse(text.toString()) as CdpMessage),
    () => {},
  );
  return { delivered, ...attached };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('CdpMultiplexer', () => {
  it('gives each client its own browser session and routes replies and events to their owner only', async () => {
    const browser = fakeBrowser();
    const mux = new CdpMultiplexer(browser.pipe, (message) => checkCdpCommand(message, '/profile/Downloads'));
    const one = await client(mux);
    const two = await client(mux);
    expect(mux.clientCount).toBe(2);

    one.receive(JSON.stringify({ id: 1, method: 'Target.setAutoAttach', params: { autoAttach: true } }));
    two.receive(JSON.stringify({ id: 1, method: 'Browser.getVersion' }));
    await tick();
    const [toOne, toTwo] = browser.received.slice(-2);
    expect(toOne).toMatchObject({ method: 'Target.setAutoAttach', sessionId: 'browser-session-1' });
    expect(toTwo).toMatchObject({ method: 'Browser.getVersion', sessionId: 'browser-session-2' });
    expect(toOne?.id).not.toBe(toTwo?.id);
    browser.send({ id: toTwo?.id, result: { product: 'Chrome' }, sessionId: 'browser-session-2' });
    browser.send({
      method: 'Target.attachedToTarget',
      params: { sessionId: 'page-of-one', targetInfo: {} },
      sessionId: 'browser-session-1',
    });
    browser.send({ method: 'Page.loadEventFired', params: {}, sessionId: 'page-of-one' });
    await tick();
    expect(two.delivered).toEqual([{ id: 1, result: { product: 'Chrome' } }]);
    expect(one.delivered.map((message) => message.method)).toEqual([
      'Target.attachedToTarget',
      'Page.loadEventFired',
    ]);

    // The second client may not address the first one's page.
    two.receive(JSON.stringify({ id: 2, method: 'Runtime.evaluate', sessionId: 'page-of-one', params: {} }));
    await tick();
    expect(two.delivered.at(-1)).toEqual({
      id: 2,
      sessionId: 'page-of-one',
      error: { code: -32001, message: 'Session with given id not found.' },
    });
    expect(browser.received.some((message) => message.method === 'Runtime.evaluate')).toBe(false);

    two.detach();
    await tick();
    expect(mux.clientCount).toBe(1);
    expect(browser.received.at(-1)).toMatchObject({
      method: 'Target.detachFromTarget',
      params: { sessionId: 'browser-session-2' },
    });
  });

  it('answers refused commands itself and rewrites download folders', async () => {
    const browser = fakeBrowser();
    const mux = new CdpMultiplexer(browser.pipe, (message) => checkCdpCommand(message, '/profile/Downloads'));
    const one = await client(mux);
    one.receive(JSON.stringify({ id: 5, method: 'Page.navigate', params: { url: 'FILE:///etc/passwd' } }));
    one.receive(
      JSON.stringify({ id: 6, method: 'Page.navigate', params: { url: 'view-source:file:///etc/' } }),
    );
    one.receive(JSON.stringify({ id: 7, method: 'Tethering.bind', params: { port: 22 } }));
    one.receive(
      JSON.stringify({
        id: 8,
        method: 'Browser.setDownloadBehavior',
        params: { behavior: 'allow', downloadPath: '/etc' },
      }),
    );
    await tick();
    expect(one.delivered.map((message) => message.error?.message)).toEqual([
      'Page.navigate may not open file: addresses on this service.',
      'Page.navigate may not open view-source: addresses on this service.',
      'Tethering.bind is not available on this service: it opens ports on the service’s machine.',
    ]);
    expect(browser.received.at(-1)).toMatchObject({
      method: 'Browser.setDownloadBehavior',
      params: { behavior: 'allowAndName', downloadPath: '/profile/Downloads' },
    });
  });

  it('closes a client that does not speak the protocol', async () => {
    const browser = fakeBrowser();
    const mux = new CdpMultiplexer(browser.pipe, (message) => checkCdpCommand(message, '/d'));
    let closedWith = '';
    const attached = await mux.attach(
      () => {},
      (reason) => {
        closedWith = reason;
      },
    );
    attached.receive('not json');
    expect(closedWith).toMatch(/must be JSON with a numeric id and a method/);
  });
});

describe('CdpTokens', () => {
  it('opens the session it was minted for, until it expires', () => {
    let now = 1_000_000;
    const tokens = new CdpTokens(Buffer.alloc(32, 1), () => now);
    const path = tokens.path('ses_a');
    expect(tokens.sessionOf(path)).toBe('ses_a');
    expect(tokens.sessionOf(path.replace('ses_a', 'ses_b'))).toBeNull();
    expect(new CdpTokens(Buffer.alloc(32, 2), () => now).sessionOf(path)).toBeNull();
    now += 12 * 60 * 60 * 1000;
    expect(tokens.sessionOf(path)).toBeNull();
  });
});
