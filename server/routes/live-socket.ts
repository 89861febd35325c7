import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { Logger } from '../core/log';
import { refuseUpgrade, type UpgradeHandler } from '../http/upgrades';
import type { LiveAddress, LiveTokens } from '../live/live-tokens';
import { type LiveViewer, startLiveViewer } from '../live/screencast-viewer';
import { relayDevtools } from '../sessions/cdp-relay';

/** A viewer that stops reading is dropped before its frames cost memory (a few frames' worth). */
const MAX_BUFFERED_BYTES = 8 * 2 ** 20;
const MAX_MESSAGE_BYTES = 256 * 2 ** 10;

export interface LiveSocketDeps {
  tokens: LiveTokens;
  /** The DevTools of a session this process runs, or null. */
  devtoolsOf(sessionId: string): CdpMultiplexer | null;
  /** The address of the other node that runs the session, or null. */
  peerOf(sessionId: string): Promise<string | null>;
  /** Counts the opening as one request of the account's hourly limit: null, or why it is refused. */
  countOpening(sessionId: string): Promise<string | null>;
  log: Logger;
}

/**
 * The live view's WebSocket, at the page's address followed by `/socket`: the session's screencast out, the
 * viewer's input in. Served by the node that runs the session; any other node relays it there unchanged (the
 * token is checked again there, with the cluster's shared key). Each opening counts against the hourly limit.
 */
export function liveSocket(deps: LiveSocketDeps): UpgradeHandler {
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
  });
  const refuse = (socket: Duplex) =>
    refuseUpgrade(
      socket,
      'There is no running session at this live view address, or its token has expired; ask the session again for its live_view_url.',
    );
  return (request: IncomingMessage, socket: Duplex, head: Buffer, path: string) => {
    const address = deps.tokens.addressOf(path);
    if (address === null || !address.socket) return refuse(socket);
    const devtools = deps.devtoolsOf(address.sessionId);
    if (devtools === null) {
      deps.peerOf(address.sessionId).then(
        (peer) => {
          if (!peer) return refuse(socket);
          sockets.handleUpgrade(request, socket, head, (webSocket) =>
            relayDevtools(webSocket, `${peer.replace(/^http/, 'ws')}${path}`, MAX_BUFFERED_BYTES),
          );
        },
        (error: unknown) => {
          deps.log.warn('could not find the node of a session', { session_id: address.sessionId, error });
          refuse(socket);
        },
      );
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) =>
      serveViewer(webSocket, devtools, address, deps),
    );
  };
}

function serveViewer(
  webSocket: WebSocket,
  devtools: CdpMultiplexer,
  address: LiveAddress,
  deps: LiveSocketDeps,
): void {
  const queued: string[] = [];
  let viewer: LiveViewer | null = null;
  let closed = false;
  webSocket.on('message', (data, isBinary) => {
    const text = isBinary ? '' : data.toString();
    if (viewer) viewer.receive(text);
    else queued.push(text);
  });
  webSocket.on('close', () => {
    closed = true;
    viewer?.end();
  });
  webSocket.on('error', () => webSocket.terminate());
  const link = {
    send(message: object) {
      if (webSocket.bufferedAmount > MAX_BUFFERED_BYTES) webSocket.terminate();
      else if (webSocket.readyState === webSocket.OPEN) webSocket.send(JSON.stringify(message));
    },
    close(code: number, reason: string) {
      if (code === 1008 || code === 1013) link.send({ type: 'refused', detail: reason });
      webSocket.close(code, reason.slice(0, 120));
    },
  };
  deps
    .countOpening(address.sessionId)
    .then(async (refused) => {
      if (refused !== null) return link.close(1013, refused);
      const started = await startLiveViewer(devtools, address.mode, link);
      if (closed) return started.end();
      viewer = started;
      for (const text of queued.splice(0)) started.receive(text);
    })
    .catch((error: unknown) => {
      deps.log.warn('a live viewer could not start', { session_id: address.sessionId, error });
      webSocket.close(1011, 'The session’s browser did not accept the live view.');
    });
}
