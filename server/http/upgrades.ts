import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { refusedForeignHost, type ServedNames } from './served-names';

/** Takes a WebSocket upgrade request for one path (the request's, without its query). */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer, path: string) => void;

/**
 * The one `upgrade` listener of the HTTP server: a request for a name the service is not served as is refused;
 * each other goes to the handler of its path, exact paths first, else to `fallback` (which answers what it does
 * not know).
 */
export function serveUpgrades(
  server: Server,
  names: ServedNames,
  exact: Record<string, UpgradeHandler>,
  fallback: UpgradeHandler,
): void {
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (refusedForeignHost(names, request, socket)) return;
    const path = new URL(request.url ?? '/', 'http://service').pathname;
    (exact[path] ?? fallback)(request, socket, head, path);
  });
}

/** The WebSockets of upgrades handed over here: uncompressed, each message at most `maxMessageBytes`. */
export function upgradeSockets(maxMessageBytes: number): WebSocketServer {
  return new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes, perMessageDeflate: false });
}

/** Answers an upgrade it cannot serve with a 404 in problem details, and closes. */
export function refuseUpgrade(socket: Duplex, detail: string): void {
  const body = JSON.stringify({
    type: 'urn:profile-pilot:problem:not_found',
    title: 'Not found',
    status: 404,
    detail,
    code: 'not_found',
  });
  socket.end(
    `HTTP/1.1 404 Not Found\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
