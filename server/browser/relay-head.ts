import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** The most a request head may hold; Chromium's are a few KiB. */
const MAX_HEAD_BYTES = 64 * 1024;
const HEAD_END = Buffer.from('\r\n\r\n');

/** A request head as the relay reads it: only what routing, credentials and framing need. */
export interface RequestHead {
  method: string;
  /** As written on the request line: `host:port` for CONNECT, an absolute URL for a proxied request. */
  target: string;
  version: string;
  /** Header lines as sent, without the line ends. */
  lines: string[];
  /** A header's value by its lower-case name (the first, when sent twice). */
  header(name: string): string | undefined;
}

export class HeadTooLarge extends Error {
  override name = 'HeadTooLarge';
}

export class MalformedHead extends Error {
  override name = 'MalformedHead';
}

/**
 * The next chunk the socket has, or null once it ended or closed. The socket stays paused in between, so bytes
 * wait in the kernel while the relay decides where they go.
 */
export function nextChunk(socket: Socket): Promise<Buffer | null> {
  const ready = socket.read() as Buffer | null;
  if (ready !== null) return Promise.resolve(ready);
  if (socket.readableEnded || socket.destroyed) return Promise.resolve(null);
  return new Promise((settle) => {
    const done = () => {
      socket.off('readable', done);
      socket.off('end', done);
      socket.off('close', done);
      settle(socket.destroyed ? null : ((socket.read() as Buffer | null) ?? nextChunk(socket)));
    };
    socket.on('readable', done);
    socket.on('end', done);
    socket.on('close', done);
  });
}

/**
 * Reads up to the end of the next head (a request's or an answer's): its bytes and whatever followed them, or
 * null if the socket ended first. Throws HeadTooLarge past 64 KiB.
 */
export async function readHeadBytes(
  socket: Socket,
  already: Buffer,
): Promise<{ head: Buffer; rest: Buffer } | null> {
  let buffered = already;
  for (;;) {
    const end = buffered.indexOf(HEAD_END);
    if (end > MAX_HEAD_BYTES || (end < 0 && buffered.length > MAX_HEAD_BYTES))
      throw new HeadTooLarge('The head is larger than the 64 KiB this relay reads.');
    if (end >= 0) return { head: buffered.subarray(0, end), rest: buffered.subarray(end + 4) };
    const chunk = await nextChunk(socket);
    if (chunk === null) return null;
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
  }
}

/** The next request head and the bytes after it, or null; throws MalformedHead for a request line that is not one. */
export async function readHead(
  socket: Socket,
  already: Buffer,
): Promise<{ head: RequestHead; rest: Buffer } | null> {
  const read = await readHeadBytes(socket, already);
  return read && { head: parseHead(read.head), rest: read.rest };
}

function parseHead(bytes: Buffer): RequestHead {
  const [requestLine = '', ...lines] = bytes.toString('latin1').split('\r\n');
  const parts = requestLine.split(' ');
  const [method, target, version] = parts;
  if (parts.length !== 3 || !method || !target || !version?.startsWith('HTTP/1.'))
    throw new MalformedHead('The request line is not HTTP/1.');
  return {
    method,
    target,
    version,
    lines,
    header(name) {
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === name)
          return line.slice(colon + 1).trim();
      }
      return undefined;
    },
  };
}

/** The user name and password of a Basic `Proxy-Authorization`, as one `user:password` buffer. */
export function basicCredentials(head: RequestHead): Buffer | null {
  const value = head.header('proxy-authorization');
  const match = value === undefined ? null : /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(value);
  return match?.[1] ? Buffer.from(match[1], 'base64') : null;
}

/** How a request's body ends: after so many bytes, or only with the connection (chunked or unknown framing). */
export function bodyLength(head: RequestHead): number | 'until close' {
  if (head.header('transfer-encoding') !== undefined) return 'until close';
  const length = head.header('content-length');
  if (length === undefined) return 0;
  return /^\d{1,15}$/.test(length) ? Number(length) : 'until close';
}

const HOP_BY_HOP = new Set(['proxy-authorization', 'proxy-connection']);

/**
 * The head as sent on: `requestTarget` on the request line, the headers meant for this relay dropped, and
 * `extraLines` added (the upstream proxy's own credentials).
 */
export function rewriteHead(head: RequestHead, requestTarget: string, extraLines: string[] = []): Buffer {
  const kept = head.lines.filter((line) => {
    const colon = line.indexOf(':');
    return !HOP_BY_HOP.has(line.slice(0, colon).trim().toLowerCase());
  });
  const lines = [`${head.method} ${requestTarget} ${head.version}`, ...kept, ...extraLines];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** A complete answer from the relay itself, after which it closes the connection. */
export function relayAnswer(status: number, body: string, extraLines: string[] = []): Buffer {
  const text = Buffer.from(body);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Relay Error'}`,
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${text.length}`,
    'Connection: close',
    'Proxy-Connection: close',
    ...extraLines,
  ];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), text]);
}
