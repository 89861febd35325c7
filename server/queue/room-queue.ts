import { onePassAtATime } from '../../lib/one-pass-at-a-time';
import type { Clock } from '../core/clock';
import type { Job } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import {
  claimNextWait,
  ROOM_CHANNEL,
  removeWait,
  removeWaitsOfDeletedProfiles,
  unclaimStartsOf,
  unclaimWait,
  type WaitRow,
} from '../store/room-waits';
import { fairShare } from './fair-share';

/** What became of a claimed wait once its browser was asked for. */
export type Served = 'started' | 'no_room' | 'done';

/** What became of a claimed session start: its session, the error it met, or no room after all. */
export type StartServed = { sessionId: string } | { error: unknown } | 'no_room';

export interface RoomQueueDeps {
  db: Database;
  clock: Clock;
  log: Logger;
  nodeId: string;
  /** MAX_BROWSERS of this node. */
  maxBrowsers: number;
  /** Browsers this node may still start now. */
  roomHere(): number;
  /** Each plan's sessions at once. */
  caps: Record<string, number>;
  /** Executes a claimed run; resolves once its browser started or it could not (`no_room`: it waits again). */
  serveRun(wait: WaitRow & { run_id: string }): Promise<Served>;
  /** Starts a claimed session start's browser. */
  serveStart(wait: WaitRow): Promise<StartServed>;
  /** Fails the runs whose profile was deleted while they waited. */
  failDeleted(runIds: string[]): Promise<void>;
}

export interface RoomQueue {
  /** Claims and serves what this node has room for now; resolves once this pass claimed all it could. */
  dispatch(): Promise<void>;
  /** The session start of wait `seq`, while this node serves it. */
  startOf(seq: number): Promise<StartServed> | undefined;
  /** Listens for room (NOTIFY), with a poll for what a lost connection or a back-off's end would miss. */
  job: Job;
  /** Session starts this node (on start-up) or a lost node had claimed go back in line. */
  requeueStarts(nodeId: string | null): Promise<void>;
}

const START_KEPT_MS = 30_000;

/**
 * Often enough that a retry's back-off ends close to its time, a missed notification costs at most this, and a
 * run whose profile was deleted while it waited fails soon after.
 */
const POLL_MS = 1000;

/**
 * The line for browsers, in the database: each node claims the waits it has room for (FOR UPDATE SKIP LOCKED in
 * store/room-waits.ts) whenever it is told room may have come (LISTEN pp_room), and serves them. Built on
 * PostgreSQL's own tools rather than graphile-worker or pg-boss, which do not run on PGlite, the embedded
 * database; this serves both the same way.
 */
export function createRoomQueue(deps: RoomQueueDeps): RoomQueue {
  const { db, clock, log, nodeId } = deps;
  const share = fairShare(deps.maxBrowsers);
  /** Claimed here and not yet holding their browser's slot. */
  let serving = 0;
  let stopped = false;
  let stopListening: () => Promise<void> = async () => {};
  const starts = new Map<number, Promise<StartServed>>();

  async function serveStart(wait: WaitRow): Promise<StartServed> {
    const outcome = await deps.serveStart(wait);
    if (outcome === 'no_room') await unclaimWait(db, wait.seq);
    else await removeWait(db, wait.seq);
    return outcome;
  }

  function serve(wait: WaitRow): void {
    serving += 1;
    let served: Promise<unknown>;
    if (wait.run_id) {
      // A run leaves the line itself once it has its browser or ends; without room it went back in its place.
      served = deps.serveRun({ ...wait, run_id: wait.run_id });
    } else {
      const start = serveStart(wait);
      starts.set(wait.seq, start);
      // Kept a while after it settles: the bulk start that queued it reads it once its dispatch returns.
      served = start.finally(() => setTimeout(() => starts.delete(wait.seq), START_KEPT_MS).unref());
    }
    void served
      .catch((error: unknown) => log.error('a wait for room could not be served', { error }))
      .finally(() => {
        serving -= 1;
        wake();
      });
  }

  async function failDeleted(): Promise<void> {
    const deleted = await removeWaitsOfDeletedProfiles(db);
    if (deleted.length > 0) await deps.failDeleted(deleted);
  }

  async function claimAll(): Promise<void> {
    if (stopped) return;
    while (!stopped && deps.roomHere() - serving > 0) {
      const terms = { nodeId, share, caps: deps.caps, now: clock.now() };
      const wait = await db.transaction((tx) => claimNextWait(tx, terms));
      if (!wait) return;
      serve(wait);
    }
  }

  const passes = onePassAtATime(
    () => claimAll().catch((error: unknown) => log.error('the queue could not claim work', { error })),
    () => !stopped,
  );
  const dispatch = passes.run;
  const wake = () => void dispatch();

  return {
    dispatch,
    startOf: (seq) => starts.get(seq),
    requeueStarts: (node) => unclaimStartsOf(db, node),
    job: {
      name: 'room queue',
      async start() {
        await unclaimStartsOf(db, nodeId);
        stopListening = await db.listen(ROOM_CHANNEL, { onNotify: wake, onRestored: wake });
        wake();
      },
      every: {
        ms: POLL_MS,
        run() {
          void failDeleted()
            .catch((error: unknown) =>
              log.error('the queue could not fail deleted profiles’ runs', { error }),
            )
            .finally(wake);
        },
      },
      async stop() {
        stopped = true;
        await stopListening();
        await passes.running();
      },
    },
  };
}
