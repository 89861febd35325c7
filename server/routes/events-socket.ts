import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Hono } from 'hono';
import { WebSocket } from 'ws';
import type { AppEnv } from '../http/env';
import { meteredMessages } from '../http/message-rate';
import { type UpgradeHandler, upgradeSockets } from '../http/upgrades';

/** The first message must come this soon after the socket opens. */
const AUTH_TIMEOUT_MS = 10_000;
const MAX_MESSAGE_BYTES = 4096;
/** The client speaks once (its key); a client that goes on sending is closed past this. */
const MESSAGE_RATE = { perSecond: 1, burst: 10, past: 'close' } as const;
/** A client that stops reading is dropped before its backlog costs memory. */
const MAX_BUFFERED_BYTES = 4 * 2 ** 20;

/** Close codes: the HTTP status the stream was refused with, in the 4000 range (4401, 4429, …). */
const closeCodeOf = (status: number) => 4000 + status;

/**
 * The event stream over a WebSocket at `/v1/events`. The client's first message is `{ "key": "<API key>",
 * "last_event_id"?: "<id>" }`, never the URL, where logs keep it. It is then exactly the SSE stream: the socket
 * asks the app for `GET /v1/events` with that key (so authentication, the hourly limit, the stream cap and
 * Last-Event-ID behave the same), sends `{"type":"open"}` once accepted, then each event as one text message
 * (the event's JSON), and `{"type":"heartbeat"}` for each heartbeat; it says nothing more (past 10 messages at
 * once or one a second it is closed with 1008). A refusal is sent as its problem details, then the socket closes with
 * 4000 + the status (4401, 4429, 4422).
 */
export function eventSocket(app: Hono<AppEnv>): UpgradeHandler {
  const sockets = upgradeSockets(MAX_MESSAGE_BYTES);
  return (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    sockets.handleUpgrade(request, socket, head, (webSocket) => {
      const closed = new AbortController();
      webSocket.on('close', () => closed.abort());
      webSocket.on('error', () => webSocket.terminate());
      webSocket.on('message', meteredMessages(webSocket, MESSAGE_RATE));
      const timer = setTimeout(
        () => webSocket.close(closeCodeOf(401), 'send {"key": "<API key>"} as the first message'),
        AUTH_TIMEOUT_MS,
      );
      webSocket.once('message', (data, isBinary) => {
        clearTimeout(timer);
        const hello = isBinary ? null : parseHello(data.toString());
        const headers: Record<string, string> = {};
        if (hello?.key) headers.Authorization = `Bearer ${hello.key}`;
        if (hello?.lastEventId) headers['Last-Event-ID'] = hello.lastEventId;
        void relay(app, request, headers, webSocket, closed.signal);
      });
    });
  };
}

function parseHello(text: string): { key: string | null; lastEventId: string | null } | null {
  try {
    const hello = JSON.parse(text) as { key?: unknown; last_event_id?: unknown };
    return {
      key: typeof hello.key === 'string' ? hello.key : null,
      lastEventId: typeof hello.last_event_id === 'string' ? hello.last_event_id : null,
    };
  } catch {
    return null;
  }
}

/** Asks the app for the SSE stream and sends its events as messages until either side closes. */
async function relay(
  app: Hono<AppEnv>,
  upgrade: IncomingMessage,
  headers: Record<string, string>,
  webSocket: WebSocket,
  closed: AbortSignal,
): Promise<void> {
  const origin = `http://${upgrade.headers.host ?? 'service'}`;
  const response = await app.fetch(new Request(`${origin}/v1/events`, { headers, signal: closed }), {
    incoming: upgrade,
  });
  if (response.status !== 200 || !response.body) {
    const problem = await response.text();
    if (webSocket.readyState === WebSocket.OPEN) {
      webSocket.send(problem);
      webSocket.close(closeCodeOf(response.status), 'refused');
    }
    return;
  }
  webSocket.send('{"type":"open"}');
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  closed.addEventListener('abort', () => void reader.cancel().catch(() => {}), { once: true });
  let buffered = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || webSocket.readyState !== WebSocket.OPEN) break;
      buffered += value;
      let end = buffered.indexOf('\n\n');
      while (end >= 0) {
        const message = messageOf(buffered.slice(0, end));
        buffered = buffered.slice(end + 2);
        if (message) {
          if (webSocket.bufferedAmount > MAX_BUFFERED_BYTES) return webSocket.terminate();
          webSocket.send(message);
        }
        end = buffered.indexOf('\n\n');
      }
    }
  } catch {
    // The socket closed: the stream was cancelled.
  } finally {
    if (webSocket.readyState === WebSocket.OPEN) webSocket.close(1001, 'the service is stopping');
  }
}

/** One SSE frame as a WebSocket message: the event's JSON, a heartbeat, or nothing (the `retry:` frame). */
function messageOf(frame: string): string | null {
  if (frame.startsWith(': heartbeat')) return '{"type":"heartbeat"}';
  const data = frame
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => line.slice(6))
    .join('\n');
  return data === '' ? null : data;
}
