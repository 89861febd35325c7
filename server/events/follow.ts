import type { ServiceEvent } from '../../lib/api/schemas/events';
import type { Queryable } from '../db/driver';
import { eventsAfter, isEventKept, latestEventId } from '../store/events';
import type { Reader } from '../store/scope';
import { accountTopic, type Publisher } from './publisher';

const BATCH = 100;

/** Where a stream starts: after this event, and whether the client may have missed some before it. */
export interface StreamStart {
  after: string;
  missed: boolean;
}

/**
 * After the client's last event (Last-Event-ID), which may be one the service no longer keeps; without one, after
 * the latest event now. Read before the stream answers: an event committed once the client sees the stream open
 * is sent on it, never taken for one from before.
 */
export async function streamStart(
  db: Queryable,
  accountId: string,
  lastEventId: string | null,
): Promise<StreamStart> {
  if (lastEventId === null) return { after: await latestEventId(db, accountId), missed: false };
  return {
    after: lastEventId,
    missed: lastEventId !== '0' && !(await isEventKept(db, accountId, lastEventId)),
  };
}

export interface FollowOptions {
  db: Queryable;
  publisher: Publisher;
  /** The account, and the scope whose profiles' events are sent. */
  reader: Reader;
  start: StreamStart;
  heartbeatMs: number;
  signal: AbortSignal;
  send(event: ServiceEvent | typeof RESET): Promise<void>;
  heartbeat(): Promise<void>;
}

/** Told to a client that resumed after an event the service no longer keeps: it may have missed some. */
export const RESET = { type: 'stream.reset', created_at: '', data: {} } as const;

/**
 * Sends the account's events in order until `signal` aborts: those after its start first, then each as it
 * is committed (woken by the publisher, read from the database), with a heartbeat when nothing came for a while.
 */
export async function followEvents(options: FollowOptions): Promise<void> {
  const { db, publisher, reader, signal } = options;
  let woken = true;
  let wake = () => {};
  // Subscribed before the first read, so that no commit between the read and the wait goes unnoticed.
  const unsubscribe = publisher.subscribe(accountTopic(reader.id), () => {
    woken = true;
    wake();
  });
  const stop = () => wake();
  signal.addEventListener('abort', stop);
  try {
    let last = options.start.after;
    if (options.start.missed) await options.send(RESET);
    while (!signal.aborted) {
      if (woken) {
        woken = false;
        const batch = await eventsAfter(db, reader, last, BATCH);
        for (const event of batch) {
          if (signal.aborted) return;
          await options.send(event);
          last = event.id;
        }
        if (batch.length === BATCH) woken = true;
        continue;
      }
      const idle = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(true), options.heartbeatMs);
        wake = () => {
          clearTimeout(timer);
          resolve(false);
        };
        if (woken || signal.aborted) wake();
      });
      wake = () => {};
      if (idle && !signal.aborted) await options.heartbeat();
    }
  } finally {
    unsubscribe();
    signal.removeEventListener('abort', stop);
  }
}
