import type { WebSocket } from 'ws';

/**
 * How many messages a socket's client may send: `perSecond` on average, `burst` at once. Past it the socket is
 * either closed with 1008 and a sentence (a client with no reason to send many), or read no further until the
 * rate allows (`pause`: the client's own sends back up, as TCP does to a slow reader).
 */
export interface MessageRate {
  perSecond: number;
  burst: number;
  past: 'close' | 'pause';
}

/** How long a socket closed for its rate stays open, unread, before it is ended. */
const CLOSED_GRACE_MS = 1000;

/**
 * Spends one of the socket's tokens on each message it receives: true when the message may be handled, false
 * when it came past the rate (the socket is then closing). Install before any other message listener.
 *
 * A socket closed for its rate is read no further (a flood goes on arriving until the client sees the close, and
 * decoding it cost the service as much as the flood itself) and is ended CLOSED_GRACE_MS later: a client that
 * opens again at once is slowed to one socket a second.
 */
export function meteredMessages(webSocket: WebSocket, rate: MessageRate, now = Date.now): () => boolean {
  let tokens = rate.burst;
  let filledAt = now();
  let resuming: NodeJS.Timeout | undefined;
  webSocket.once('close', () => clearTimeout(resuming));
  return () => {
    const at = now();
    tokens = Math.min(rate.burst, tokens + ((at - filledAt) / 1000) * rate.perSecond);
    filledAt = at;
    tokens -= 1;
    if (tokens >= 0) return true;
    if (rate.past === 'close') {
      if (webSocket.readyState === webSocket.OPEN) {
        webSocket.close(1008, `more than ${rate.perSecond} messages a second; open it again more slowly`);
        webSocket.pause();
        setTimeout(() => webSocket.terminate(), CLOSED_GRACE_MS).unref();
      }
      return false;
    }
    if (resuming === undefined) {
      webSocket.pause();
      resuming = setTimeout(
        () => {
          resuming = undefined;
          webSocket.resume();
        },
        Math.ceil((-tokens / rate.perSecond) * 1000),
      );
    }
    return true;
  };
}
