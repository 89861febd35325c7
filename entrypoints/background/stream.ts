import type { ServiceEvent } from '../../lib/api/schemas/events';
import type { Connection } from '../../lib/storage';

/** After a drop the stream is opened again after this long, doubling up to the cap (each opening is a request). */
const RETRY_FIRST_MS = 2_000;
const RETRY_CAP_MS = 300_000;
/** Refused (the plan's stream cap, the hourly limit): the worker polls, and tries the stream again this much later. */
const REFUSED_RETRY_MS = 300_000;

export interface EventStreamDeps {
  connection(): Promise<Connection>;
  /** Applies one event; called in order, one at a time. */
  onEvent(event: ServiceEvent): Promise<void>;
  /** The stream opened without a point to resume from (or the service lost it): read what changed meanwhile. */
  onCatchUp(): Promise<void>;
  /** The stream went live or stopped being live: the watcher polls only while it is not. */
  onLiveChange(live: boolean): void;
  setTimer(callback: () => void, ms: number): () => void;
  open(url: string): WebSocket;
}

export type EventStream = ReturnType<typeof createEventStream>;

/**
 * One WebSocket to the service's event stream while anyone holds it (the open popup, followed runs, running
 * sessions). The key goes as the first message, never in the address. Each event reaches `onEvent` in order;
 * a dropped stream resumes after the last event seen, so nothing is missed; a refused one leaves the watching
 * to the quota-planned polling. A Chrome worker is kept alive while messages (the heartbeat too) arrive.
 */
export function createEventStream(deps: EventStreamDeps) {
  const holders = new Set<string>();
  let socket: WebSocket | null = null;
  let live = false;
  let lastEventId: string | null = null;
  let retryMs = RETRY_FIRST_MS;
  let cancelRetry: (() => void) | null = null;
  let applying: Promise<void> = Promise.resolve();

  function setLive(next: boolean): void {
    if (live === next) return;
    live = next;
    deps.onLiveChange(next);
  }

  function inOrder(task: () => Promise<void>): void {
    applying = applying
      .then(task)
      .catch((error) => console.warn('Profile Pilot worker: an event failed', error));
  }

  async function open(): Promise<void> {
    if (socket || holders.size === 0 || cancelRetry) return;
    const { serviceUrl, apiKey } = await deps.connection();
    if (!apiKey || socket || holders.size === 0) return;
    const opened = deps.open(`${serviceUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}/v1/events`);
    socket = opened;
    opened.onopen = () =>
      opened.send(JSON.stringify({ key: apiKey, last_event_id: lastEventId ?? undefined }));
    opened.onmessage = ({ data }) => {
      const message = JSON.parse(String(data)) as
        | ServiceEvent
        | { type: 'open' }
        | { type: 'heartbeat' }
        | { type: 'stream.reset' }
        | { status: number };
      // A refusal's problem details: the close that follows says what to do.
      if ('status' in message || message.type === 'heartbeat') return;
      if (message.type === 'open') {
        setLive(true);
        retryMs = RETRY_FIRST_MS;
        if (lastEventId === null) inOrder(deps.onCatchUp);
        return;
      }
      if (message.type === 'stream.reset') return inOrder(deps.onCatchUp);
      lastEventId = message.id;
      inOrder(() => deps.onEvent(message));
    };
    opened.onclose = ({ code }) => {
      if (socket !== opened) return;
      socket = null;
      setLive(false);
      if (holders.size === 0) return;
      // 4401: the key was refused; nothing to retry until the person sets another.
      if (code === 4401) return;
      const wait = code === 4429 ? REFUSED_RETRY_MS : retryMs;
      retryMs = Math.min(RETRY_CAP_MS, retryMs * 2);
      cancelRetry = deps.setTimer(() => {
        cancelRetry = null;
        void open();
      }, wait);
    };
  }

  function close(): void {
    cancelRetry?.();
    cancelRetry = null;
    const closing = socket;
    socket = null;
    closing?.close();
    setLive(false);
  }

  return {
    /** Someone needs events (`popup`, `runs`, `sessions`): the stream opens unless it is already. */
    hold(holder: string): Promise<void> {
      holders.add(holder);
      return open();
    },
    /** No longer needed by `holder`: the stream closes once nobody holds it. */
    release(holder: string): void {
      holders.delete(holder);
      if (holders.size === 0) close();
    },
    /** The key or the address changed: open again with the new ones, from a fresh start. */
    restart(): Promise<void> {
      close();
      lastEventId = null;
      return open();
    },
    isLive: () => live,
  };
}
