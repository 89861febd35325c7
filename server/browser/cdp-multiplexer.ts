import { type CdpMessage, type CdpPipe, type LargeCdpMessage, tooLarge } from './cdp-pipe';
import type { CdpVerdict } from './cdp-policy';
import type { ContextWatcher } from './relay-credentials';
import type { OutgoingMessage } from './relay-traces';

/** One DevTools client (a relayed WebSocket, or the automation runner) sharing a browser's pipe. */
export interface CdpClient {
  /** A message from the client, as text; answers and events go to the `deliver` given at attach (as JSON text). */
  receive(text: string): void;
  /** Ends the client's browser session and everything it attached; safe to call again. */
  detach(): void;
}

interface AttachedClient {
  browserSessionId: string;
  /** Whether the client counts as using the browser (a glance of the service's own does not). */
  counted: boolean;
  deliver(text: string | Buffer): void;
  close(reason: string): void;
}

interface PendingCommand {
  client: AttachedClient;
  clientId: number;
  method: string;
  /** The browser context a Target.disposeBrowserContext names. */
  disposing?: unknown;
}

const ATTACH_METHODS = new Set(['Target.attachToTarget', 'Target.attachToBrowserTarget']);

/**
 * Several DevTools clients over the browser's single pipe. Each client gets a browser session of its own
 * (`Target.attachToBrowserTarget`), so auto-attach and discovery stay per client as on a DevTools port.
 * Message ids are rewritten so that replies find their client; a client may only address the sessions it
 * attached, and every command passes `policy` first.
 */
export class CdpMultiplexer {
  private readonly clients = new Set<AttachedClient>();
  private readonly owners = new Map<string, AttachedClient>();
  private readonly pending = new Map<number, PendingCommand>();
  private readonly countListeners = new Set<(count: number) => void>();

  /**
   * `contexts` hears of each browser context a client creates before the client does, and of each disposed;
   * `outgoing` sees every message a client is sent from the browser (see relay-traces.ts).
   */
  constructor(
    private readonly pipe: CdpPipe,
    private readonly policy: (message: CdpMessage) => CdpVerdict,
    private readonly contexts?: ContextWatcher,
    private readonly outgoing: (message: OutgoingMessage) => OutgoingMessage = (message) => message,
  ) {
    pipe.onMessage((message) => this.fromBrowser(message));
    pipe.onLargeMessage((message) => this.largeFromBrowser(message));
  }

  /** The browser closed its pipe: it is gone or going, whether or not its exit is seen yet. */
  get browserGone(): boolean {
    return this.pipe.closed;
  }

  /** The clients that use the browser (keep the session from idling). */
  get clientCount(): number {
    let count = 0;
    for (const client of this.clients) if (client.counted) count += 1;
    return count;
  }

  /** Called with the number of attached clients whenever it changes. */
  onClientCount(listener: (count: number) => void): void {
    this.countListeners.add(listener);
  }

  /**
   * Opens a browser session for a new client; `close` is called when the browser goes away. An uncounted
   * client (the service glancing at a page for a list) leaves the session's idle timer as it is.
   */
  async attach(
    deliver: (text: string | Buffer) => void,
    close: (reason: string) => void,
    { counted = true }: { counted?: boolean } = {},
  ): Promise<CdpClient> {
    const { sessionId } = await this.pipe.send('Target.attachToBrowserTarget');
    const client: AttachedClient = { browserSessionId: sessionId as string, counted, deliver, close };
    this.clients.add(client);
    this.owners.set(client.browserSessionId, client);
    if (counted) this.countChanged();
    return {
      receive: (text) => this.fromClient(client, text),
      detach: () => this.detach(client),
    };
  }

  /** The browser is gone: every client is told and dropped. */
  closeAll(reason: string): void {
    for (const client of [...this.clients]) {
      this.forget(client);
      client.close(reason);
    }
  }

  private detach(client: AttachedClient): void {
    if (!this.clients.has(client)) return;
    this.forget(client);
    this.pipe.send('Target.detachFromTarget', { sessionId: client.browserSessionId }).catch(() => {});
  }

  private forget(client: AttachedClient): void {
    this.clients.delete(client);
    for (const [sessionId, owner] of this.owners) if (owner === client) this.owners.delete(sessionId);
    for (const [id, command] of this.pending) if (command.client === client) this.pending.delete(id);
    if (client.counted) this.countChanged();
  }

  private countChanged(): void {
    const count = this.clientCount;
    for (const listener of this.countListeners) listener(count);
  }

  private fromClient(client: AttachedClient, text: string): void {
    if (!this.clients.has(client)) return;
    const message = parseCommand(text);
    if (message === null) {
      client.close('a DevTools message must be JSON with a numeric id and a method');
      return;
    }
    const clientId = message.id as number;
    const sessionId = message.sessionId ?? client.browserSessionId;
    if (this.owners.get(sessionId) !== client) {
      this.answerError(client, clientId, message.sessionId, -32001, 'Session with given id not found.');
      return;
    }
    const verdict = this.policy(message);
    if (!verdict.allowed) {
      this.answerError(client, clientId, message.sessionId, -32000, verdict.reason);
      return;
    }
    const id = this.pipe.nextId();
    const method = message.method as string;
    const disposing =
      method === 'Target.disposeBrowserContext' ? message.params?.browserContextId : undefined;
    this.pending.set(id, { client, clientId, method, disposing });
    this.pipe.write({ ...verdict.message, id, sessionId });
  }

  private fromBrowser(message: CdpMessage): void {
    if (message.id !== undefined) this.reply(message, message.id);
    else this.event(message);
  }

  private reply(message: CdpMessage, id: number): void {
    const command = this.pending.get(id);
    if (!command) return;
    this.pending.delete(id);
    const attached = message.result?.sessionId;
    if (ATTACH_METHODS.has(command.method) && typeof attached === 'string')
      this.owners.set(attached, command.client);
    const answer = { ...message, id: command.clientId };
    if (typeof command.disposing === 'string' && !message.error) this.contexts?.disposed(command.disposing);
    const created = message.result?.browserContextId;
    if (command.method !== 'Target.createBrowserContext' || typeof created !== 'string' || !this.contexts) {
      this.send(command.client, answer);
      return;
    }
    void this.contexts.created(created).then(() => {
      if (this.clients.has(command.client)) this.send(command.client, answer);
    });
  }

  private event(message: CdpMessage): void {
    // Events outside any session belong to the service's own use of the pipe.
    const owner = message.sessionId === undefined ? undefined : this.owners.get(message.sessionId);
    if (!owner) return;
    const child = message.params?.sessionId;
    if (message.method === 'Target.attachedToTarget' && typeof child === 'string')
      this.owners.set(child, owner);
    if (message.method === 'Target.detachedFromTarget' && typeof child === 'string')
      this.owners.delete(child);
    this.send(owner, message);
  }

  /**
   * A large reply or event passes as the bytes it came in, its id and session rewritten at its ends: parsing and
   * writing it again would hold the event loop for every account. One that was dropped closes its client.
   */
  private largeFromBrowser(message: LargeCdpMessage): void {
    const command = message.id === undefined ? undefined : this.pending.get(message.id);
    if (command) this.pending.delete(message.id as number);
    // A reply goes to whoever asked; an event, as `event` routes it (never outside the clients' sessions).
    const client =
      message.id === undefined
        ? message.sessionId === undefined
          ? undefined
          : this.owners.get(message.sessionId)
        : command?.client;
    if (!client) return;
    if (message.parts.length === 0) {
      const reason = tooLarge(message.size);
      if (command) this.answerError(client, command.clientId, message.sessionId, -32000, reason);
      this.forget(client);
      client.close(reason);
      return;
    }
    let parts = message.parts;
    if (command)
      parts = [
        Buffer.from(`{"id":${command.clientId}`),
        ...withoutStart(parts, `{"id":${message.id}`.length),
      ];
    if (message.sessionId === client.browserSessionId)
      parts = [...withoutEnd(parts, `,"sessionId":"${message.sessionId}"}`.length), Buffer.from('}')];
    client.deliver(this.outgoing(Buffer.concat(parts)));
  }

  /** To the client, as if its browser session were the whole connection. */
  private send(client: AttachedClient, message: CdpMessage): void {
    const { sessionId, ...rest } = message;
    client.deliver(this.outgoing(JSON.stringify(sessionId === client.browserSessionId ? rest : message)));
  }

  private answerError(
    client: AttachedClient,
    id: number,
    sessionId: string | undefined,
    code: number,
    text: string,
  ): void {
    const error = { id, error: { code, message: text } };
    client.deliver(JSON.stringify(sessionId === undefined ? error : { ...error, sessionId }));
  }
}

function withoutStart(parts: Buffer[], bytes: number): Buffer[] {
  const [first, ...rest] = parts as [Buffer, ...Buffer[]];
  return bytes < first.length ? [first.subarray(bytes), ...rest] : withoutStart(rest, bytes - first.length);
}

function withoutEnd(parts: Buffer[], bytes: number): Buffer[] {
  const last = parts[parts.length - 1] as Buffer;
  const rest = parts.slice(0, -1);
  return bytes < last.length
    ? [...rest, last.subarray(0, last.length - bytes)]
    : withoutEnd(rest, bytes - last.length);
}

function parseCommand(text: string): CdpMessage | null {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null) return null;
  const { id, method, sessionId, params } = message as Record<string, unknown>;
  if (!Number.isSafeInteger(id) || typeof method !== 'string') return null;
  if (sessionId !== undefined && typeof sessionId !== 'string') return null;
  if (params !== undefined && (typeof params !== 'object' || params === null || Array.isArray(params)))
    return null;
  return message as CdpMessage;
}
