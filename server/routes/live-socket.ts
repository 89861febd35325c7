import type { WebSocket } from 'ws';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { UpgradeHandler } from '../http/upgrades';
import type { LiveAddress, LiveTokens } from '../live/live-tokens';
import { type LiveViewer, startLiveViewer } from '../live/screencast-viewer';
import { holdMessages, type SessionSocketDeps, sessionSocket } from './session-socket';

/** A viewer that stops reading is dropped before its frames cost memory (a few frames' worth). */
const MAX_BUFFERED_BYTES = 8 * 2 ** 20;
const MAX_MESSAGE_BYTES = 256 * 2 ** 10;

export interface LiveSocketDeps extends SessionSocketDeps {
  tokens: LiveTokens;
  /** Counts the opening as one request of the account's hourly limit: null, or why it is refused. */
  countOpening(sessionId: string): Promise<string | null>;
}

/**
 * The live view's WebSocket, at the page's address followed by `/socket`: the session's screencast out, the
 * viewer's input in. Served by the node that runs the session; any other node relays it there unchanged (the
 * token is checked again there, with the cluster's shared key). Each opening counts against the hourly limit.
 */
export function liveSocket(deps: LiveSocketDeps): UpgradeHandler {
  return sessionSocket(deps, {
    addressOf: (path) => {
      const address = deps.tokens.addressOf(path);
      return address?.socket ? address : null;
    },
    serve: (webSocket, devtools, address) => serveViewer(webSocket, devtools, address, deps),
    notFound:
      'There is no running session at this live view address, or its token has expired; ask the session again for its live_view_url.',
    maxMessageBytes: MAX_MESSAGE_BYTES,
    maxBufferedBytes: MAX_BUFFERED_BYTES,
  });
}

function serveViewer(
  webSocket: WebSocket,
  devtools: CdpMultiplexer,
  address: LiveAddress,
  deps: LiveSocketDeps,
): void {
  const deliverTo = holdMessages(webSocket);
  let viewer: LiveViewer | null = null;
  let closed = false;
  webSocket.on('close', () => {
    closed = true;
    viewer?.end();
  });
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
      deliverTo((text) => started.receive(text));
    })
    .catch((error: unknown) => {
      deps.log.warn('a live viewer could not start', { session_id: address.sessionId, error });
      webSocket.close(1011, 'The session’s browser did not accept the live view.');
    });
}
