import type { ConnectOverCDPTransport } from 'playwright-core';
import type { CdpClient, CdpMultiplexer } from '../browser/cdp-multiplexer';

/**
 * Playwright's connection to a browser this process runs, as one more client of the browser's DevTools
 * multiplexer: the same CDP policy, refusals and relay secrecy as a client of the session's `cdp_url`, without a
 * WebSocket or the HTTP server in between. Commands still reach the multiplexer as JSON text, which it checks as
 * it checks a socket's. Answers are handed on in a later microtask: Playwright registers a command's callback
 * only once `send` has returned, and the multiplexer answers a refused command at once.
 */
export async function devtoolsTransport(devtools: CdpMultiplexer): Promise<ConnectOverCDPTransport> {
  let client: CdpClient | null = null;
  let closed = false;
  const end = (reason: string) => {
    if (closed) return;
    closed = true;
    client?.detach();
    queueMicrotask(() => transport.onclose?.(reason));
  };
  const transport: ConnectOverCDPTransport = {
    send(message) {
      if (!closed) client?.receive(JSON.stringify(message));
    },
    close: () => end('the page layer closed its DevTools connection'),
  };
  client = await devtools.attach((text) => {
    const message = JSON.parse(text.toString()) as object;
    queueMicrotask(() => {
      if (!closed) transport.onmessage?.(message);
    });
  }, end);
  return transport;
}
