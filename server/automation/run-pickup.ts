import type { Job } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import type { RunScheduler } from './scheduler';
import { RUNS_QUEUED_CHANNEL } from './scheduler';

/** How often a node looks for runs queued for it, in case it missed the notification. */
const FALLBACK_POLL_MS = 5000;

/**
 * Takes up the runs other nodes queue for this one: told at once through NOTIFY, and by a slow poll for what
 * a lost connection missed. On the embedded database every run is queued where it is executed.
 */
export function pickUpRunsQueuedHere(deps: {
  db: Database;
  nodeId: string;
  automation: RunScheduler;
  log: Logger;
}): Job | null {
  const { db, nodeId, automation, log } = deps;
  if (db.kind !== 'postgres') return null;
  const pickUp = () =>
    void automation.pickUp().catch((error: unknown) => log.error('could not take up queued runs', { error }));
  let stopListening: () => Promise<void> = async () => {};
  return {
    name: 'runs queued here',
    async start() {
      stopListening = await db.listen(RUNS_QUEUED_CHANNEL, {
        onNotify: (payload) => {
          if (payload === nodeId) pickUp();
        },
        onRestored: pickUp,
      });
    },
    every: { ms: FALLBACK_POLL_MS, run: pickUp },
    stop: () => stopListening(),
  };
}
