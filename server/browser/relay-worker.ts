/**
 * A worker thread that runs session relays, so that the bytes every session moves are copied on a thread of
 * their own instead of the one that answers the API. Messages in: open (a relay's settings and secret),
 * challenge (whom it asks for the secret), noted (a refusal was recorded), close. Out: opened (its port) or failed (a sentence), challenging, refused (a
 * destination the egress policy refused, answered by noted), closed.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { EgressPolicy } from '../core/egress-policy';
import type { RelayLimits } from './relay-limits';
import { type RelayServer, startRelayServer } from './relay-server';
import type { ProxySettings } from './settings';

export type ToRelayWorker =
  | {
      type: 'open';
      id: number;
      upstream: ProxySettings | null;
      egressAllow: string;
      secret: string;
      limits?: RelayLimits;
    }
  | { type: 'challenge'; id: number; processGroup: number }
  | { type: 'noted'; id: number; refusal: number }
  | { type: 'close'; id: number };

export type FromRelayWorker =
  | { type: 'opened'; id: number; port: number }
  | { type: 'failed'; id: number; reason: string }
  | { type: 'refused'; id: number; refusal: number; host: string; detail: string }
  | { type: 'challenging'; id: number }
  | { type: 'closed'; id: number };

/**
 * Relay threads run below the thread that answers the API: when the machine is short of CPU, an account's
 * request goes before another session's bytes. 5 keeps the API's p95 while six sessions stream within 1.5× of
 * its p95 beside six raw browsers, where 0 let it reach 2× and 10 cost the sessions a fifth of their throughput
 * (`npm run bench`, traffic).
 */
const RELAY_NICENESS = 5;

const port = parentPort;
if (!port) throw new Error('relay-worker.ts runs as a worker thread.');
lowerThisThreadsPriority();
const relays = new Map<number, Promise<RelayServer | null>>();
const awaitingNote = new Map<number, () => void>();
let lastRefusal = 0;
const tell = (message: FromRelayWorker) => port.postMessage(message);

function open(message: Extract<ToRelayWorker, { type: 'open' }>): void {
  const { id } = message;
  const opening = startRelayServer({
    upstream: message.upstream,
    policy: EgressPolicy.parse(message.egressAllow),
    secret: message.secret,
    limits: message.limits,
    onRefused: (host, detail) =>
      new Promise((noted) => {
        const refusal = ++lastRefusal;
        awaitingNote.set(refusal, noted);
        tell({ type: 'refused', id, refusal, host, detail });
      }),
  }).then(
    (relay) => {
      tell({ type: 'opened', id, port: relay.port });
      return relay;
    },
    (error: unknown) => {
      relays.delete(id);
      tell({ type: 'failed', id, reason: (error as Error).message });
      return null;
    },
  );
  relays.set(id, opening);
}

port.on('message', (message: ToRelayWorker) => {
  if (message.type === 'open') return open(message);
  if (message.type === 'noted') {
    awaitingNote.get(message.refusal)?.();
    awaitingNote.delete(message.refusal);
    return;
  }
  const opening = relays.get(message.id) ?? Promise.resolve(null);
  if (message.type === 'challenge') {
    void opening.then((relay) => {
      relay?.challenge(message.processGroup);
      tell({ type: 'challenging', id: message.id });
    });
    return;
  }
  relays.delete(message.id);
  void opening
    .then((relay) => relay?.close())
    .catch(() => {})
    .finally(() => tell({ type: 'closed', id: message.id }));
});

/** Linux gives each thread a niceness of its own; elsewhere, or if refused, the relays share the CPU evenly. */
function lowerThisThreadsPriority(): void {
  try {
    const threadId = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    setPriority(threadId, RELAY_NICENESS);
  } catch {
    // As documented above: nothing changes.
  }
}
