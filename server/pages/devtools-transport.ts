import type { ConnectOverCDPTransport } from 'playwright-core';
import type { CdpClient, CdpMultiplexer } from '../browser/cdp-multiplexer';

/**
 * Playwright's connection to a browser this process runs, as one more client of the browser's DevTools
 * multiplexer: the same CDP policy, refusals and relay secrecy as a client of the session's `cdp_url`, without a
 * WebSocket or the HTTP server in between. Commands still reach the multiplexer as JSON text, which it checks as
 * it checks a socket's. Each message is handed on in a task of its own, as Playwright's own transports do: its
 * handling of one (a new target's session, say) must be done before the next arrives, or that one is lost and a
 * page hangs; and it registers a command's callback only once `send` has returned, while the multiplexer answers
 * a refused command at once.
 */
export async function devtoolsTransport(devtools: CdpMultiplexer): Promise<ConnectOverCDPTransport> {
  let client: CdpClient | null = null;
  let closed = false;
  const end = (reason: string) => {
    if (closed) return;
    closed = true;
    client?.detach();
    setImmediate(() => transport.onclose?.(reason));
  };
  const transport: ConnectOverCDPTransport = {
    send(message) {
      if (!closed) client?.receive(JSON.stringify(message));
    },
    close: () => end('the page layer closed its DevTools connection'),
  };
  client = await devtools.attach((text) => {
    const message = JSON.parse(text.toString()) as object;
    setImmediate(() => {
      if (!closed) transport.onmessage?.(message);
    });
  }, end);
  return transport;
}
