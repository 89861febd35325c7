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

/** A command that Chromium answered with an error, or that could not be answered. */
export class CdpCommandError extends Error {
  override name = 'CdpCommandError';
}

/**
 * The DevTools protocol over `--remote-debugging-pipe`: JSON messages ending in a NUL byte, written to the
 * browser's fd 3 and read from its fd 4. No page and no other process can reach this channel, unlike a
 * DevTools port. Commands sent here use ids above the ones a multiplexer hands out (see `nextId`).
 */
export class CdpPipe {
  private buffered = '';
  private lastId = 0;
  private readonly pending = new Map<number, (message: CdpMessage) => void>();
  private readonly listeners = new Set<(message: CdpMessage) => void>();
  private closedWith: Error | null = null;

  constructor(
    private readonly toBrowser: Writable,
    fromBrowser: Readable,
  ) {
    fromBrowser.setEncoding('utf8');
    fromBrowser.on('data', (chunk: string) => this.receive(chunk));
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

  private receive(chunk: string): void {
    this.buffered += chunk;
    for (let end = this.buffered.indexOf('\0'); end >= 0; end = this.buffered.indexOf('\0')) {
      const text = this.buffered.slice(0, end);
      this.buffered = this.buffered.slice(end + 1);
      this.dispatch(JSON.parse(text) as CdpMessage);
    }
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
