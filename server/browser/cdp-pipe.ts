import type { Readable, Writable } from 'node:stream';

/** A DevTools protocol message as Chromium sends it: a reply (`id`) or an event (`method`). */
export interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  sessionId?: string;
}

/**
 * A message too large to parse without holding the event loop (tens of ms per 10 MB): its id, or its session,
 * read from its two ends, and its JSON text still in the pieces it arrived in. `parts` is empty when the message
 * was over MAX_CDP_MESSAGE_BYTES: it was dropped, and whoever it was for is told so.
 */
export interface LargeCdpMessage {
  id: number | undefined;
  sessionId: string | undefined;
  parts: Buffer[];
  /** Its size in bytes. */
  size: number;
}

/**
 * The largest DevTools message passed on, as a WebSocket client's largest message (cdp-endpoint's maxPayload):
 * a larger reply could not reach its client anyway, and the pipe never holds more than this per message.
 */
export const MAX_CDP_MESSAGE_BYTES = 64 * 2 ** 20;

/** Above this size a message is passed on as bytes, not parsed. */
const LARGE_MESSAGE_BYTES = 2 ** 20;
/** How much of a large message's start and end is kept to read its id and session. */
const ENDS_BYTES = 256;

/** A command that Chromium answered with an error, or that could not be answered. */
export class CdpCommandError extends Error {
  override name = 'CdpCommandError';
}

/**
 * The DevTools protocol over `--remote-debugging-pipe`: JSON messages ending in a NUL byte, written to the
 * browser's fd 3 and read from its fd 4. No page and no other process can reach this channel, unlike a
 * DevTools port. Commands sent here use ids above the ones a multiplexer hands out (see `nextId`).
 *
 * Reading is linear in the bytes: each chunk is scanned once for the NUL, and a message's chunks are joined
 * once (small ones) or never (large ones, passed on as they came; see LargeCdpMessage).
 */
export class CdpPipe {
  /** The chunks of the message being read, and their size; past the maximum only its ends are kept. */
  private parts: Buffer[] = [];
  private size = 0;
  private dropping: { head: Buffer; tail: Buffer } | null = null;
  private lastId = 0;
  private readonly pending = new Map<number, (message: CdpMessage) => void>();
  private readonly listeners = new Set<(message: CdpMessage) => void>();
  private readonly largeListeners = new Set<(message: LargeCdpMessage) => void>();
  private closedWith: Error | null = null;

  constructor(
    private readonly toBrowser: Writable,
    fromBrowser: Readable,
  ) {
    fromBrowser.on('data', (chunk: Buffer) => this.receive(chunk));
    fromBrowser.on('close', () => this.close(new CdpCommandError('the browser closed its DevTools pipe')));
    fromBrowser.on('error', () => {});
    toBrowser.on('error', () => {});
  }

  /** A fresh message id, unique on this pipe. */
  nextId(): number {
    this.lastId += 1;
    return this.lastId;
  }

  get closed(): boolean {
    return this.closedWith !== null;
  }

  /** Sends a message as is (its id taken from `nextId`); replies and events reach `onMessage` listeners. */
  write(message: CdpMessage): void {
    if (this.closedWith) return;
    this.toBrowser.write(`${JSON.stringify(message)}\0`);
  }

  /** Sends a command and resolves with its result; rejects with CdpCommandError on an error reply. */
  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId();
    return new Promise((resolve, reject) => {
      this.pending.set(id, (reply) => {
        if (reply.error) reject(new CdpCommandError(`${method}: ${reply.error.message}`));
        else resolve(reply.result ?? {});
      });
      this.write(sessionId ? { id, method, params, sessionId } : { id, method, params });
    });
  }

  /** Every message Chromium sends that is not the reply to a `send`; returns the way to stop listening. */
  onMessage(listener: (message: CdpMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The messages over LARGE_MESSAGE_BYTES that are not the reply to a `send`, unparsed. */
  onLargeMessage(listener: (message: LargeCdpMessage) => void): () => void {
    this.largeListeners.add(listener);
    return () => this.largeListeners.delete(listener);
  }

  private receive(chunk: Buffer): void {
    let rest = chunk;
    for (let end = rest.indexOf(0); end >= 0; end = rest.indexOf(0)) {
      this.take(rest.subarray(0, end));
      this.ended();
      rest = rest.subarray(end + 1);
    }
    if (rest.length > 0) this.take(rest);
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.dropping) {
      this.dropping.tail = lastBytes([this.dropping.tail, piece]);
      return;
    }
    this.parts.push(piece);
    if (this.size <= MAX_CDP_MESSAGE_BYTES) return;
    this.dropping = { head: firstBytes(this.parts), tail: lastBytes(this.parts) };
    this.parts = [];
  }

  private ended(): void {
    const { parts, size, dropping } = this;
    this.parts = [];
    this.size = 0;
    this.dropping = null;
    if (dropping) this.dispatchLarge(dropping.head, dropping.tail, [], size);
    else if (size > LARGE_MESSAGE_BYTES) this.dispatchLarge(firstBytes(parts), lastBytes(parts), parts, size);
    else this.dispatch(JSON.parse(Buffer.concat(parts, size).toString('utf8')) as CdpMessage);
  }

  private dispatchLarge(head: Buffer, tail: Buffer, parts: Buffer[], size: number): void {
    const id = /^\{"id":(\d+)[,}]/.exec(head.toString('latin1'))?.[1];
    const message: LargeCdpMessage = {
      id: id === undefined ? undefined : Number(id),
      sessionId: /,"sessionId":"([^"\\]*)"\}$/.exec(tail.toString('latin1'))?.[1],
      parts,
      size,
    };
    if (message.id !== undefined && this.pending.has(message.id)) {
      // The service's own command: it asked for this much, so it is parsed, unless it was dropped.
      const reply: CdpMessage =
        parts.length > 0
          ? (JSON.parse(Buffer.concat(parts, size).toString('utf8')) as CdpMessage)
          : { id: message.id, error: { code: -32000, message: tooLarge(size) } };
      this.dispatch(reply);
    } else for (const listener of this.largeListeners) listener(message);
  }

  private dispatch(message: CdpMessage): void {
    const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
    if (waiting && message.id !== undefined) {
      this.pending.delete(message.id);
      waiting(message);
      return;
    }
    for (const listener of this.listeners) listener(message);
  }

  private close(reason: Error): void {
    if (this.closedWith) return;
    this.closedWith = reason;
    for (const waiting of this.pending.values())
      waiting({ error: { code: -32000, message: reason.message } });
    this.pending.clear();
  }
}

/** Why a message was dropped, as a sentence. */
export function tooLarge(size: number): string {
  return `The browser's DevTools message of ${(size / 2 ** 20).toFixed(1)} MB is over the ${MAX_CDP_MESSAGE_BYTES / 2 ** 20} MB this service passes on.`;
}

function firstBytes(parts: Buffer[]): Buffer {
  const head: Buffer[] = [];
  let size = 0;
  for (const part of parts) {
    if (size >= ENDS_BYTES) break;
    head.push(part.subarray(0, ENDS_BYTES - size));
    size += head[head.length - 1]?.length ?? 0;
  }
  return Buffer.concat(head, size);
}

function lastBytes(parts: Buffer[]): Buffer {
  const tail: Buffer[] = [];
  let size = 0;
  for (let index = parts.length - 1; index >= 0 && size < ENDS_BYTES; index--) {
    const part = parts[index] as Buffer;
    const piece = part.subarray(Math.max(0, part.length - (ENDS_BYTES - size)));
    tail.unshift(piece);
    size += piece.length;
  }
  return Buffer.concat(tail, size);
}
