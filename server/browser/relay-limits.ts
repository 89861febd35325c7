import type { Socket } from 'node:net';

/** How long and how many connections a session's relay holds (relay-server.ts). */
export interface RelayLimits {
  /** How long a new connection has to send its first request head in full, the secret in it. */
  headMs: number;
  /** How long a connection that presented the secret may wait for its next request with nothing moving. */
  idleMs: number;
  /** How many connections may be open at once without having presented the secret. */
  unproven: number;
}

/**
 * Chromium sends a request head within milliseconds of connecting, and keeps an idle connection to its proxy
 * for at most 5 minutes. 64 is twice the connections Chromium opens to one proxy at once.
 */
export const RELAY_LIMITS: RelayLimits = { headMs: 10_000, idleMs: 5 * 60_000, unproven: 64 };

/** The relay's connections from their accept until they present the secret, and after. */
export interface ConnectionLimits {
  /** A new connection; it is closed if it has not presented the secret within `headMs`. */
  admit(socket: Socket): void;
  /** The connection presented the secret: from now on it is closed only after `idleMs` with nothing moving. */
  proven(socket: Socket): void;
  /** The connection carries a tunnel or a body without a length: it lasts as long as both ends want. */
  unlimited(socket: Socket): void;
}

/**
 * Holds the relay to `limits`, so that idle or trickling connections without the secret, from anyone who can
 * reach loopback, cost the service no more than `unproven` descriptors for `headMs` each. Past `unproven`, the
 * oldest connection still waiting goes, not the new one: a caller who keeps the count full cannot shut out the
 * browser, whose connections present the secret at once.
 */
export function connectionLimits(limits: RelayLimits): ConnectionLimits {
  const waiting = new Map<Socket, NodeJS.Timeout>();
  const forget = (socket: Socket) => {
    clearTimeout(waiting.get(socket));
    waiting.delete(socket);
  };
  return {
    admit(socket) {
      if (waiting.size >= limits.unproven) {
        const [oldest] = waiting.keys();
        if (oldest) {
          forget(oldest);
          oldest.destroy();
        }
      }
      waiting.set(
        socket,
        setTimeout(() => socket.destroy(), limits.headMs),
      );
      socket.once('close', () => forget(socket));
    },
    proven(socket) {
      if (!waiting.has(socket)) return;
      forget(socket);
      socket.setTimeout(limits.idleMs, () => socket.destroy());
    },
    unlimited(socket) {
      socket.setTimeout(0);
    },
  };
}
