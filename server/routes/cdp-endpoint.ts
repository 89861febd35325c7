import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { Logger } from '../core/log';
import { refuseUpgrade, type UpgradeHandler } from '../http/upgrades';
import { relayDevtools } from '../sessions/cdp-relay';
import type { CdpTokens } from '../sessions/cdp-tokens';

/** A client that stops reading (a stalled network, on purpose or not) is dropped before it costs memory. */
const MAX_BUFFERED_BYTES = 64 * 2 ** 20;
const MAX_MESSAGE_BYTES = 64 * 2 ** 20;

export interface CdpEndpointDeps {
  tokens: CdpTokens;
  /** The DevTools of a session this process runs, or null. */
  devtoolsOf(sessionId: string): CdpMultiplexer | null;
  /** The address of the other node that runs the session, or null. */
  peerOf(sessionId: string): Promise<string | null>;
  log: Logger;
}

/**
 * Serves each session's DevTools protocol on the service's own port, as a WebSocket at the session's
 * `cdp_url`. The path's signed token is the only credential, so a WebSocket client (Playwright's
 * connectOverCDP, Puppeteer's connect) needs nothing else; requests without a valid one get a 404. A session
 * another node runs is relayed to it, so any node answers any `cdp_url`.
 */
export function cdpEndpoint(deps: CdpEndpointDeps): UpgradeHandler {
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
  });
  const refuse = (socket: Duplex) =>
    refuseUpgrade(
      socket,
      'There is no running session at this DevTools address, or its token has expired; ask the session again for its cdp_url.',
    );
  const relay = (request: IncomingMessage, socket: Duplex, head: Buffer, target: string) =>
    sockets.handleUpgrade(request, socket, head, (webSocket) =>
      relayDevtools(webSocket, target, MAX_BUFFERED_BYTES),
    );
  return (request: IncomingMessage, socket: Duplex, head: Buffer, path: string) => {
    const sessionId = deps.tokens.sessionOf(path);
    if (sessionId === null) return refuse(socket);
    const devtools = deps.devtoolsOf(sessionId);
    if (devtools === null) {
      deps.peerOf(sessionId).then(
        (peer) =>
          peer ? relay(request, socket, head, `${peer.replace(/^http/, 'ws')}${path}`) : refuse(socket),
        (error: unknown) => {
          deps.log.warn('could not find the node of a session', { session_id: sessionId, error });
          refuse(socket);
        },
      );
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      const queued: string[] = [];
      let client: Awaited<ReturnType<CdpMultiplexer['attach']>> | null = null;
      webSocket.on('message', (data, isBinary) => {
        const text = isBinary ? '' : data.toString();
        if (client) client.receive(text);
        else queued.push(text);
      });
      webSocket.on('close', () => client?.detach());
      webSocket.on('error', () => webSocket.terminate());
      devtools
        .attach(
          (text) => {
            if (webSocket.bufferedAmount > MAX_BUFFERED_BYTES) webSocket.terminate();
            else webSocket.send(text, { binary: false });
          },
          (reason) => webSocket.close(1001, reason.slice(0, 120)),
        )
        .then((attached) => {
          if (webSocket.readyState !== webSocket.OPEN) return attached.detach();
          client = attached;
          for (const text of queued.splice(0)) attached.receive(text);
        })
        .catch((error: unknown) => {
          deps.log.warn('a DevTools client could not attach', { session_id: sessionId, error });
          webSocket.close(1011, 'the browser did not accept a new DevTools client');
        });
    });
  };
}
