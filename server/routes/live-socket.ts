import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { TrustedProxies } from '../core/trusted-proxies';
import type { Publisher } from '../events/publisher';
import type { UpgradeHandler } from '../http/upgrades';
import type { ViewerBudget } from '../http/viewer-budget';
import { type LiveSessionDeps, viewerSessionOf } from '../live/live-sessions';
import type { LiveAddress } from '../live/live-tokens';
import { type LiveViewer, startLiveViewer } from '../live/screencast-viewer';
import { followHelp } from '../live/viewer-help';
import { type SessionSocketDeps, sessionSocket } from './session-socket';

/** A viewer that stops reading is dropped before its frames cost memory (a few frames' worth). */
const MAX_BUFFERED_BYTES = 8 * 2 ** 20;
const MAX_MESSAGE_BYTES = 256 * 2 ** 10;
/**
 * A viewer acknowledges each frame (60 a second at most) and says what it watches and at what size; a person at
 * the controls also moves the mouse, in bursts, and is read more slowly past its rate. A view-only viewer, whose
 * link anyone may be given, is closed past its own.
 */
const MESSAGE_RATES = {
  control: { perSecond: 300, burst: 600, past: 'pause' },
  view: { perSecond: 100, burst: 200, past: 'close' },
} as const;

export interface LiveSocketDeps extends SessionSocketDeps, LiveSessionDeps {
  publisher: Publisher;
  /** Counts a controlling opening as one request of the account's hourly limit: null, or why it is refused. */
  countOpening(sessionId: string): Promise<string | null>;
  /** Counts view-only openings, per link and per client address, on a budget of their own. */
  viewers: ViewerBudget;
  trustProxy: TrustedProxies;
}

/**
 * The live view's WebSocket, at the page's address followed by `/socket`: the session's screencast out, the
 * viewer's input in. Served by the node that runs the session; any other node relays it there unchanged (the
 * token is checked again there, with the cluster's shared key). Each opening of a controlling address counts
 * against the account's hourly limit; a view-only one, which anyone may be given, against the viewers' budget.
 */
export function liveSocket(deps: LiveSocketDeps): UpgradeHandler {
  return sessionSocket(deps, {
    addressOf: (path) => {
      const address = deps.tokens.addressOf(path);
      return address?.socket ? address : null;
    },
    serve: (webSocket, deliverTo, devtools, address, request) =>
      serveViewer(webSocket, deliverTo, devtools, address, () => countOpening(deps, address, request), deps),
    messageRate: (address) => MESSAGE_RATES[address.mode],
    notFound:
      'There is no running session at this live view address, or its token has expired; ask the session again for its live_view_url.',
    maxMessageBytes: MAX_MESSAGE_BYTES,
    maxBufferedBytes: MAX_BUFFERED_BYTES,
  });
}

function countOpening(
  deps: LiveSocketDeps,
  address: LiveAddress,
  request: IncomingMessage,
): Promise<string | null> {
  if (address.mode === 'control') return deps.countOpening(address.sessionId);
  const peer = request.socket.remoteAddress ?? 'unknown';
  const forwardedFor = request.headers['x-forwarded-for'];
  const client = deps.trustProxy.clientOf(
    peer,
    Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor,
  );
  return Promise.resolve(deps.viewers.open(address.link, client, Date.now()));
}

function serveViewer(
  webSocket: WebSocket,
  deliverTo: (receive: (text: string) => void) => void,
  devtools: CdpMultiplexer,
  address: LiveAddress,
  countOpening: () => Promise<string | null>,
  deps: LiveSocketDeps,
): void {
  let viewer: LiveViewer | null = null;
  let stopFollowingHelp = () => {};
  let closed = false;
  webSocket.on('close', () => {
    closed = true;
    viewer?.end();
    stopFollowingHelp();
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
  countOpening()
    .then(async (refused) => {
      if (refused !== null) return link.close(1013, refused);
      const opened = await viewerSessionOf(deps, devtools, address);
      if (opened === null) return link.close(1001, 'The session stopped.');
      link.send(opened.bar);
      const started = await startLiveViewer(opened.session, link);
      if (closed) return started.end();
      viewer = started;
      if (address.mode === 'control') stopFollowingHelp = followHelp(deps, opened.owner, link);
      deliverTo((text) => started.receive(text));
    })
    .catch((error: unknown) => {
      deps.log.warn('a live viewer could not start', { session_id: address.sessionId, error });
      webSocket.close(1011, 'The session’s browser did not accept the live view.');
    });
}
