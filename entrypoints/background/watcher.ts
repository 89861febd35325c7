import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { WatchedRun } from '../../lib/storage';
import type { Stored } from './in-turn';
import { createPollLoop, type PollLoopDeps, RECENT_RUNS } from './poll-loop';
import { createWatchList } from './watch-list';

export const WATCH_ALARM = 'watch';
/** Runs the stream reported before anyone followed them (a run reports before its start is answered). */
const KEEP_REPORTED = 20;

export type { Stored };

/** What the watcher needs from its surroundings: the worker gives the browser's, the simulation virtual ones. */
export interface WatcherDeps extends PollLoopDeps {
  runs: Stored<WatchedRun[]>;
}

export type Watcher = ReturnType<typeof createWatcher>;

/**
 * Follows runs to their end: the stored list of watched runs (`watch-list.ts`), polled while the event stream
 * is not live (`poll-loop.ts`), brought up to date by the stream's events, each end announced once
 * (`announcements.ts`). `wake()` runs on start-up and on the alarm.
 */
export function createWatcher(deps: WatcherDeps) {
  const list = createWatchList(deps.runs, deps.now);
  const loop = createPollLoop(deps, list);
  const reported = new Map<string, AutomationRun>();

  /** A run's change the event stream reported (a run's full output is read when the event left it out). */
  async function apply(run: AutomationRun & { output_omitted?: boolean }): Promise<void> {
    const followed = (await list.read()).some((entry) => entry.run.id === run.id);
    if (!followed) {
      reported.delete(run.id);
      reported.set(run.id, run);
      for (const id of reported.keys()) if (reported.size > KEEP_REPORTED) reported.delete(id);
      return;
    }
    const api = run.output_omitted ? await deps.api() : null;
    await list.record([api ? await api.getRun(run.id) : run], false);
    // Not awaited: a request planned before the stream went live must not hold the next event.
    loop.wake().catch(() => undefined);
  }

  return {
    wake: loop.wake,

    apply,

    /** The stream went live (a request in flight is no longer needed) or dropped (polling takes over). */
    streamChanged: loop.replan,

    /** The stream opened without a point to resume from: one list of recent runs brings the followed up to date. */
    async catchUp(): Promise<void> {
      const api = await deps.api();
      if (!api) return;
      await list.record((await api.listRuns({ limit: RECENT_RUNS })).data, false);
      await loop.wake();
    },

    /** Starts following a run (just started by the person), replacing an older entry for it. */
    async watch(run: AutomationRun): Promise<WatchedRun> {
      const entry = await list.add(run);
      const newer = reported.get(run.id);
      if (newer && newer.version > run.version) apply(newer).catch(() => undefined);
      loop.replan();
      return entry;
    },

    /** Stops following a run (the run itself goes on) and forgets it. */
    async cancel(runId: string): Promise<{ cancelled: boolean }> {
      const cancelled = await list.remove(runId);
      if (cancelled) loop.replan();
      return { cancelled };
    },

    markSeen: list.markSeen,
  };
}
