import type { CdpClient, CdpMultiplexer } from '../browser/cdp-multiplexer';
import { CdpCommandError, type CdpMessage } from '../browser/cdp-pipe';

type EventListener = (params: Record<string, unknown>, sessionId: string | undefined) => void;

/**
 * A DevTools client of the service's own, attached to a session's browser like any other (so the session
 * counts as in use while it is): commands answered as promises, events handed to listeners by method.
 */
export class CdpSession {
  private lastId = 0;
  private readonly pending = new Map<number, (message: CdpMessage) => void>();
  private readonly listeners = new Map<string, EventListener>();

  private constructor(private client: CdpClient | null) {}

  /** `counted: false` for a glance that should not count as using the session (see CdpMultiplexer.attach). */
  static async attach(
    devtools: CdpMultiplexer,
    onClose: (reason: string) => void,
    options: { counted?: boolean } = {},
  ): Promise<CdpSession> {
    const session = new CdpSession(null);
    session.client = await devtools.attach(
      (text) => session.deliver(JSON.parse(text.toString()) as CdpMessage),
      (reason) => {
        session.client = null;
        session.failPending(reason);
        onClose(reason);
      },
      options,
    );
    return session;
  }

  send(method: string, params: object = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const client = this.client;
    if (!client) return Promise.reject(new CdpCommandError('the browser has gone away'));
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (message) =>
        message.error ? reject(new CdpCommandError(message.error.message)) : resolve(message.result ?? {}),
      );
      client.receive(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** The one listener of an event (a later one replaces it). */
  on(method: string, listener: EventListener): void {
    this.listeners.set(method, listener);
  }

  detach(): void {
    this.client?.detach();
    this.client = null;
    this.failPending('detached');
  }

  private deliver(message: CdpMessage): void {
    if (message.id !== undefined) {
      const answer = this.pending.get(message.id);
      this.pending.delete(message.id);
      answer?.(message);
    } else if (message.method) this.listeners.get(message.method)?.(message.params ?? {}, message.sessionId);
  }

  private failPending(reason: string): void {
    for (const answer of this.pending.values()) answer({ error: { code: -32000, message: reason } });
    this.pending.clear();
  }
}
