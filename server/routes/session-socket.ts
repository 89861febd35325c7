import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { CdpMultiplexer } from '../browser/cdp-multiplexer';
import type { Logger } from '../core/log';
import { type MessageRate, meteredMessages } from '../http/message-rate';
import { refuseUpgrade, type UpgradeHandler, upgradeSockets } from '../http/upgrades';
import { relayDevtools } from '../sessions/cdp-relay';

export interface SessionSocketDeps {
  /** The DevTools of a session this process runs, or null. */
  devtoolsOf(sessionId: string): CdpMultiplexer | null;
  /** The address of the other node that runs the session, or null. */
  peerOf(sessionId: string): Promise<string | null>;
  log: Logger;
}

export interface SessionSocket<Address extends { sessionId: string }> {
  /** The session a path's token names, or null for a path no session answers. */
  addressOf(path: string): Address | null;
  /**
   * Serves the opened socket of a session this process runs; `deliverTo` hands over the client's messages, those
   * that came before it was called first.
   */
  serve(
    webSocket: WebSocket,
    deliverTo: Deliver,
    devtools: CdpMultiplexer,
    address: Address,
    request: IncomingMessage,
  ): void;
  /** The 404's sentence for an address no running session answers. */
  notFound: string;
  maxMessageBytes: number;
  /** How fast the client of this address may send, on this node and on one that relays it. */
  messageRate(address: Address): MessageRate;
  /** A client that stops reading is dropped once this much waits to be sent to it. */
  maxBufferedBytes: number;
}

/**
 * A WebSocket of one session, served by the node that runs it: here by `serve`, or relayed there unchanged from
 * any other node (which checks the path's token again).
 */
export function sessionSocket<Address extends { sessionId: string }>(
  deps: SessionSocketDeps,
  socketOf: SessionSocket<Address>,
): UpgradeHandler {
  const sockets = upgradeSockets(socketOf.maxMessageBytes);
  const refuse = (socket: Duplex) => refuseUpgrade(socket, socketOf.notFound);
  const relay = (request: IncomingMessage, socket: Duplex, head: Buffer, address: Address, target: string) =>
    sockets.handleUpgrade(request, socket, head, (webSocket) =>
      relayDevtools(webSocket, target, socketOf.maxBufferedBytes, admitted(webSocket, address)),
    );
  const admitted = (webSocket: WebSocket, address: Address) =>
    meteredMessages(webSocket, socketOf.messageRate(address));
  return (request: IncomingMessage, socket: Duplex, head: Buffer, path: string) => {
    const address = socketOf.addressOf(path);
    if (address === null) return refuse(socket);
    const devtools = deps.devtoolsOf(address.sessionId);
    if (devtools === null) {
      deps.peerOf(address.sessionId).then(
        (peer) =>
          peer
            ? relay(request, socket, head, address, `${peer.replace(/^http/, 'ws')}${path}`)
            : refuse(socket),
        (error: unknown) => {
          deps.log.warn('could not find the node of a session', { session_id: address.sessionId, error });
          refuse(socket);
        },
      );
      return;
    }
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      const deliverTo = holdMessages(webSocket, admitted(webSocket, address));
      socketOf.serve(webSocket, deliverTo, devtools, address, request);
    });
  };
}

type Deliver = (receive: (text: string) => void) => void;

/**
 * Holds the text messages a socket receives (a binary one as empty text) until the party that takes them is ready,
 * then hands them over in order, and every later one as it comes, those its rate `admits`. A socket error ends
 * the socket.
 */
function holdMessages(webSocket: WebSocket, admits: () => boolean): Deliver {
  const held: string[] = [];
  let receiver: ((text: string) => void) | null = null;
  webSocket.on('message', (data, isBinary) => {
    if (!admits()) return;
    const text = isBinary ? '' : data.toString();
    if (receiver) receiver(text);
    else held.push(text);
  });
  webSocket.on('error', () => webSocket.terminate());
  return (receive) => {
    receiver = receive;
    for (const text of held.splice(0)) receive(text);
  };
}
