import type { RunQueue } from '../automation/queue';
import { RUNS_QUEUED_CHANNEL } from '../automation/queue';
import type { Lifecycle } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';

/** How often a node looks for runs queued for it, in case it missed the notification. */
const FALLBACK_POLL_MS = 5000;

/**
 * Takes up the runs other nodes queue for this one: told at once through NOTIFY, and by a slow poll for what
 * a lost connection missed. On the embedded database every run is queued where it is executed.
 */
export function pickUpRunsQueuedHere(deps: {
  db: Database;
  nodeId: string;
  automation: RunQueue;
  lifecycle: Lifecycle;
  log: Logger;
}): void {
  const { db, nodeId, automation, lifecycle, log } = deps;
  if (db.kind !== 'postgres') return;
  const pickUp = () =>
    void automation.pickUp().catch((error: unknown) => log.error('could not take up queued runs', { error }));
  let stopListening: () => Promise<void> = async () => {};
  let timer: NodeJS.Timeout | undefined;
  lifecycle.onStart('runs queued here', async () => {
    stopListening = await db.listen(RUNS_QUEUED_CHANNEL, {
      onNotify: (payload) => {
        if (payload === nodeId) pickUp();
      },
      onRestored: pickUp,
    });
    timer = setInterval(pickUp, FALLBACK_POLL_MS).unref();
  });
  lifecycle.onShutdown('runs queued here', async () => {
    clearInterval(timer);
    await stopListening();
  });
}
