import type { WebSocket } from 'ws';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import { relayBytes } from '../core/metrics';
import type { UpgradeHandler } from '../http/upgrades';
import type { CdpTokens } from '../sessions/cdp-tokens';
import { type SessionSocketDeps, sessionSocket } from './session-socket';

/** A client that stops reading (a stalled network, on purpose or not) is dropped before it costs memory. */
const MAX_BUFFERED_BYTES = 64 * 2 ** 20;
const MAX_MESSAGE_BYTES = 64 * 2 ** 20;
/** A program drives a browser in bursts of many commands; past this it is read more slowly, not dropped. */
const MESSAGE_RATE = { perSecond: 2_000, burst: 4_000, past: 'pause' } as const;

export interface CdpEndpointDeps extends SessionSocketDeps {
  tokens: CdpTokens;
}

/**
 * Serves each session's DevTools protocol on the service's own port, as a WebSocket at the session's
 * `cdp_url`. The path's signed token is the only credential, so a WebSocket client (Playwright's
 * connectOverCDP, Puppeteer's connect) needs nothing else; requests without a valid one get a 404. A session
 * another node runs is relayed to it, so any node answers any `cdp_url`.
 */
export function cdpEndpoint(deps: CdpEndpointDeps): UpgradeHandler {
  return sessionSocket(deps, {
    addressOf: (path) => {
      const sessionId = deps.tokens.sessionOf(path);
      return sessionId === null ? null : { sessionId };
    },
    serve: (webSocket, deliverTo, devtools, { sessionId }) =>
      serveDevtools(webSocket, deliverTo, devtools, sessionId, deps),
    messageRate: () => MESSAGE_RATE,
    notFound:
      'There is no running session at this DevTools address, or its token has expired; ask the session again for its cdp_url.',
    maxMessageBytes: MAX_MESSAGE_BYTES,
    maxBufferedBytes: MAX_BUFFERED_BYTES,
  });
}

function serveDevtools(
  webSocket: WebSocket,
  deliverTo: (receive: (text: string) => void) => void,
  devtools: CdpMultiplexer,
  sessionId: string,
  deps: CdpEndpointDeps,
): void {
  let client: Awaited<ReturnType<CdpMultiplexer['attach']>> | null = null;
  webSocket.on('close', () => client?.detach());
  devtools
    .attach(
      (text) => {
        if (webSocket.bufferedAmount > MAX_BUFFERED_BYTES) return webSocket.terminate();
        relayBytes.inc({ direction: 'to_client' }, byteLength(text));
        webSocket.send(text, { binary: false });
      },
      (reason) => webSocket.close(1001, reason.slice(0, 120)),
    )
    .then((attached) => {
      if (webSocket.readyState !== webSocket.OPEN) return attached.detach();
      client = attached;
      deliverTo((text) => {
        relayBytes.inc({ direction: 'to_browser' }, byteLength(text));
        attached.receive(text);
      });
    })
    .catch((error: unknown) => {
      deps.log.warn('a DevTools client could not attach', { session_id: sessionId, error });
      webSocket.close(1011, 'the browser did not accept a new DevTools client');
    });
}

function byteLength(text: string | Buffer): number {
  return typeof text === 'string' ? Buffer.byteLength(text) : text.length;
}
