import { chmod, unlink } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import type { Logger } from '../core/log';

/**
 * The local admin channel: a unix socket owned by the running service, so that keys commands work while it
 * holds the data dir. One JSON line in, one JSON line out. Only the service's user can connect (0600), it is
 * not reachable over the network or from web pages, and it needs no secret beyond file permissions.
 */
export type AdminReply = { ok: true; result: unknown } | { ok: false; error: string };

const MAX_REQUEST_BYTES = 64 * 1024;

export interface AdminChannel {
  close(): Promise<void>;
}

export async function listenAdmin(
  socketPath: string,
  handle: (request: unknown) => Promise<unknown>,
  log: Logger,
): Promise<AdminChannel> {
  // Only the holder of the data dir lock gets here, so a socket file left behind is stale.
  await unlink(socketPath).catch(() => {});
  const server = createServer((socket) => {
    readLine(socket)
      .then((line) => handle(JSON.parse(line)))
      .then(
        (result): AdminReply => ({ ok: true, result }),
        (error: unknown): AdminReply => ({
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        }),
      )
      .then((reply) => socket.end(`${JSON.stringify(reply)}\n`))
      .catch((error: unknown) => {
        log.warn('admin request failed', { error });
        socket.destroy();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  await chmod(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  };
}

/** The service is not (yet) listening on the socket. */
export class AdminUnavailableError extends Error {}

export function askAdmin(socketPath: string, request: unknown, timeoutMs = 30_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`The service did not answer within ${timeoutMs} ms`)),
    );
    socket.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? new AdminUnavailableError(error.message)
          : error,
      );
    });
    socket.once('connect', () => {
      socket.write(`${JSON.stringify(request)}\n`);
      readLine(socket)
        .then((line) => {
          const reply = JSON.parse(line) as AdminReply;
          if (reply.ok) resolve(reply.result);
          else reject(new Error(reply.error));
        })
        .catch(reject);
    });
  });
}

function readLine(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end >= 0) resolve(buffered.slice(0, end));
      else if (buffered.length > MAX_REQUEST_BYTES) reject(new Error('admin message too long'));
    });
    socket.once('end', () => reject(new Error('the connection closed before a full message')));
    socket.once('error', reject);
  });
}
