import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { EventData, EventType, RunEventData } from '../../lib/api/schemas/events';
import type { Clock } from '../core/clock';
import type { Job } from '../core/lifecycle';
import type { Database, Queryable } from '../db/driver';
import { appendEvent, appendEvents, pruneEvents } from '../store/events';
import { accountTopic, helpTopic, type Publisher, runTopic } from './publisher';

/** Appends one event of the account to the transaction it is given, its data the shape its type names. */
export type Emit = <T extends EventType>(accountId: string, type: T, data: EventData<T>) => Promise<void>;

/** Appends many events of one type of the account, in order, in two statements (a bulk change of profiles). */
export type EmitAll = <T extends EventType>(
  accountId: string,
  type: T,
  data: EventData<T>[],
) => Promise<void>;

export interface EventLog {
  /**
   * A write with its events: runs `change` in one transaction in which `emit` records what changed; once it is
   * committed, whoever waits is woken, once per commit: the accounts' streams, the long polls of the runs that
   * changed, the waiters of the help requests that changed, and the webhook sender. A change that is rolled back reports nothing.
   */
  writeWithEvents<T>(change: (tx: Queryable, emit: Emit, emitAll: EmitAll) => Promise<T>): Promise<T>;
}

/** Topic of the webhook sender: published when deliveries were queued. */
export const WEBHOOKS_TOPIC = 'webhooks';

/** How long events are kept: a stream may resume after any event of the last hour, with a margin. */
export const EVENT_RETENTION_MS = 75 * 60_000;
const PRUNE_EVERY_MS = 5 * 60_000;

/** A run's output above this many bytes of JSON is left out of its events (read the run for it). */
const MAX_EVENT_OUTPUT_BYTES = 16 * 1024;

export function createEventLog(deps: { db: Database; clock: Clock; publisher: Publisher }): EventLog {
  const { db, clock, publisher } = deps;
  return {
    async writeWithEvents(change) {
      const topics = new Set<string>();
      let deliveries = 0;
      const result = await db.transaction((tx) =>
        change(
          tx,
          async (accountId, type, data) => {
            const stored = await appendEvent(tx, { accountId, type, data, createdAt: clock.now() });
            topics.add(accountTopic(accountId));
            addTopicsOf(topics, type, data);
            deliveries += stored.deliveries;
          },
          async (accountId, type, list) => {
            const createdAt = clock.now();
            const stored = await appendEvents(
              tx,
              list.map((data) => ({ accountId, type, data, createdAt })),
            );
            if (list.length > 0) topics.add(accountTopic(accountId));
            for (const data of list) addTopicsOf(topics, type, data);
            deliveries += stored.deliveries;
          },
        ),
      );
      for (const topic of topics) publisher.publish(topic);
      if (deliveries > 0) publisher.publish(WEBHOOKS_TOPIC);
      return result;
    },
  };
}

/** Who waits on an event besides its account's streams: the run's long polls, the help request's asker. */
function addTopicsOf(topics: Set<string>, type: EventType, data: { id: string }): void {
  if (type.startsWith('run.')) topics.add(runTopic(data.id));
  if (type.startsWith('session.help_')) topics.add(helpTopic(data.id));
}

/** A run as its events carry it: the output only while it is small. */
export function runEventData(run: AutomationRun, stepIndex?: number): RunEventData {
  const small = Buffer.byteLength(JSON.stringify(run.output)) <= MAX_EVENT_OUTPUT_BYTES;
  return {
    ...run,
    ...(small ? {} : { output: {}, output_omitted: true as const }),
    ...(stepIndex === undefined ? {} : { step_index: stepIndex }),
  };
}

/** Deletes the events older than the retention, at start and every few minutes. */
export function pruneOldEvents(db: Database, clock: Clock): Job {
  const prune = () => pruneEvents(db, new Date(clock.now().getTime() - EVENT_RETENTION_MS));
  return {
    name: 'event log',
    start: prune,
    every: { ms: PRUNE_EVERY_MS, run: () => void prune().catch(() => {}) },
  };
}
