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
  /** Every value of a header, by its lower-case name, in the order sent. */
  values(name: string): string[];
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

/** A request line's three parts, the target printable ASCII without spaces. */
const REQUEST_LINE = /^([A-Za-z]+) ([!-~]+) (HTTP\/1\.[01])$/;
/**
 * A header line as RFC 9112 has it: a token, the colon right after it, a value of visible characters, spaces
 * and tabs. Anything else (a space before the colon, a folded line, a bare LF) a site may read otherwise than
 * the relay does, so it is refused.
 */
const HEADER_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e\x80-\xff]*$/;

function parseHead(bytes: Buffer): RequestHead {
  const [requestLine = '', ...lines] = bytes.toString('latin1').split('\r\n');
  const [, method, target, version] = REQUEST_LINE.exec(requestLine) ?? [];
  if (!method || !target || !version) throw new MalformedHead('The request line is not HTTP/1.');
  if (!lines.every((line) => HEADER_LINE.test(line)))
    throw new MalformedHead('A header line is not one: a name, a colon and a value.');
  const values = (name: string) =>
    lines.flatMap((line) => {
      const colon = line.indexOf(':');
      return line.slice(0, colon).toLowerCase() === name ? [line.slice(colon + 1).trim()] : [];
    });
  return { method, target, version, lines, header: (name) => values(name)[0], values };
}

/** The user name and password of a Basic `Proxy-Authorization`, as one `user:password` buffer. */
export function basicCredentials(head: RequestHead): Buffer | null {
  const value = head.header('proxy-authorization');
  const match = value === undefined ? null : /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(value);
  return match?.[1] ? Buffer.from(match[1], 'base64') : null;
}

/**
 * How a request's body ends: after so many bytes, or only with the connection (chunked, or an upgrade to
 * another protocol). Throws MalformedHead for a length that is not one number: a site might frame it otherwise.
 */
export function bodyLength(head: RequestHead): number | 'until close' {
  if (head.header('transfer-encoding') !== undefined || head.header('upgrade') !== undefined)
    return 'until close';
  const lengths = head.values('content-length');
  if (lengths.length === 0) return 0;
  const [length = ''] = lengths;
  if (lengths.length > 1 || !/^\d{1,15}$/.test(length))
    throw new MalformedHead('The request does not give its Content-Length once, as one number.');
  return Number(length);
}

const HOP_BY_HOP = new Set(['proxy-authorization', 'proxy-connection']);

/**
 * The head as sent on: `requestTarget` on the request line, the headers meant for this relay dropped, and
 * `extraLines` added (the upstream proxy's own credentials).
 */
export function rewriteHead(head: RequestHead, requestTarget: string, extraLines: string[] = []): Buffer {
  const kept = head.lines.filter((line) => !HOP_BY_HOP.has(line.slice(0, line.indexOf(':')).toLowerCase()));
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
