import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CdpMultiplexer } from '../../../server/browser/cdp-multiplexer';
import { type CdpMessage, CdpPipe, MAX_CDP_MESSAGE_BYTES } from '../../../server/browser/cdp-pipe';

function pipeFromBrowser() {
  const fromBrowser = new PassThrough();
  const toBrowser = new PassThrough();
  const pipe = new CdpPipe(toBrowser, fromBrowser);
  const seen: CdpMessage[] = [];
  pipe.onMessage((message) => seen.push(message));
  return { pipe, fromBrowser, toBrowser, seen };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('CdpPipe', () => {
  it('reads a message split across many chunks, and several messages in one chunk', async () => {
    const { fromBrowser, seen } = pipeFromBrowser();
    const one = Buffer.from(`${JSON.stringify({ method: 'A.split', params: { text: 'é'.repeat(5000) } })}\0`);
    // 7-byte pieces cut through the two-byte characters too.
    for (let at = 0; at < one.length; at += 7) fromBrowser.write(one.subarray(at, at + 7));
    fromBrowser.write(
      `${JSON.stringify({ method: 'B.one' })}\0${JSON.stringify({ method: 'B.two' })}\0${JSON.stringify({ method: 'B.three' }).slice(0, 5)}`,
    );
    fromBrowser.write(`${JSON.stringify({ method: 'B.three' }).slice(5)}\0`);
    await tick();
    expect(seen.map((message) => message.method)).toEqual(['A.split', 'B.one', 'B.two', 'B.three']);
    expect(seen[0]?.params?.text).toBe('é'.repeat(5000));
  });

  it('passes a large reply to its client as the bytes it came in, with the client id and no browser session', async () => {
    const { pipe, fromBrowser, toBrowser } = pipeFromBrowser();
    const written: CdpMessage[] = [];
    toBrowser.on('data', (chunk: Buffer) => {
      for (const text of chunk.toString().split('\0').filter(Boolean)) written.push(JSON.parse(text));
    });
    const mux = new CdpMultiplexer(pipe, (message) => ({ allowed: true, message }));
    const attaching = [];
    const delivered: (string | Buffer)[] = [];
    attaching.push(
      mux.attach(
        (text) => delivered.push(text),
        () => {},
      ),
    );
    await tick();
    fromBrowser.write(`${JSON.stringify({ id: written[0]?.id, result: { sessionId: 'S1' } })}\0`);
    const client = await attaching[0];
    client?.receive(JSON.stringify({ id: 41, method: 'Runtime.evaluate', params: { expression: 'big' } }));
    await tick();
    const value = 'x'.repeat(3 * 2 ** 20);
    const reply = Buffer.from(
      `${JSON.stringify({ id: written[1]?.id, result: { value }, sessionId: 'S1' })}\0`,
    );
    for (let at = 0; at < reply.length; at += 65536) fromBrowser.write(reply.subarray(at, at + 65536));
    await tick();
    expect(delivered).toHaveLength(1);
    expect(Buffer.isBuffer(delivered[0])).toBe(true);
    expect(JSON.parse(delivered[0]?.toString() ?? '')).toEqual({ id: 41, result: { value } });
  });

  it('drops a message past the maximum: its client is answered and closed with a sentence, the pipe goes on', async () => {
    const { pipe, fromBrowser, toBrowser } = pipeFromBrowser();
    const written: CdpMessage[] = [];
    toBrowser.on('data', (chunk: Buffer) => {
      for (const text of chunk.toString().split('\0').filter(Boolean)) written.push(JSON.parse(text));
    });
    const mux = new CdpMultiplexer(pipe, (message) => ({ allowed: true, message }));
    const delivered: string[] = [];
    const closed: string[] = [];
    const attaching = mux.attach(
      (text) => delivered.push(text.toString()),
      (reason) => closed.push(reason),
    );
    await tick();
    fromBrowser.write(`${JSON.stringify({ id: written[0]?.id, result: { sessionId: 'S1' } })}\0`);
    const client = await attaching;
    client.receive(JSON.stringify({ id: 7, method: 'Runtime.evaluate', params: { expression: 'huge' } }));
    await tick();
    fromBrowser.write(`{"id":${written[1]?.id},"result":{"value":"`);
    const mb = Buffer.alloc(2 ** 20, 'y');
    for (let written = 0; written <= MAX_CDP_MESSAGE_BYTES; written += mb.length) fromBrowser.write(mb);
    fromBrowser.write('"},"sessionId":"S1"}\0');
    await tick();
    expect(JSON.parse(delivered[0] ?? '')).toMatchObject({
      id: 7,
      error: { message: expect.stringMatching(/is over the 64 MB/) },
    });
    expect(closed).toEqual([
      expect.stringMatching(/^The browser's DevTools message of 65\.0 MB is over the 64 MB/),
    ]);
    expect(mux.clientCount).toBe(0);
    // The next message is read as usual.
    const answered = pipe.send('Browser.getVersion');
    await tick();
    fromBrowser.write(
      `${JSON.stringify({ id: written[written.length - 1]?.id, result: { product: 'Chrome' } })}\0`,
    );
    expect(await answered).toEqual({ product: 'Chrome' });
  });
});
