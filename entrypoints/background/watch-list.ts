import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { WatchedRun } from '../../lib/storage';
import { change, type Stored } from './in-turn';

/** Ended runs kept for the popup's list, besides those still followed or not yet announced. */
const KEEP_ENDED = 20;
const ENDED: readonly string[] = ['succeeded', 'failed', 'cancelled'];

export function isEnded(run: AutomationRun): boolean {
  return ENDED.includes(run.status);
}

export type WatchList = ReturnType<typeof createWatchList>;

/** The stored list of watched runs: every change a read-modify-write, in turn with the worker's other writes. */
export function createWatchList(runs: Stored<WatchedRun[]>, now: () => number) {
  const update = (next: (entries: WatchedRun[]) => WatchedRun[]) => change(runs, next);

  return {
    read: () => runs.getValue(),

    /** Saves what the service said about followed runs; with the recent list, returns the ones missing from it. */
    async record(fresh: AutomationRun[], isRecentList: boolean): Promise<string[]> {
      const byId = new Map(fresh.map((run) => [run.id, run]));
      const left: string[] = [];
      const at = now();
      await update((entries) =>
        entries.map((entry) => {
          if (entry.phase !== 'watching') return entry;
          const run = byId.get(entry.run.id);
          if (!run) {
            if (isRecentList) left.push(entry.run.id);
            return entry;
          }
          if (run.version === entry.run.version && run.status === entry.run.status) return entry;
          return isEnded(run) ? { ...entry, run, phase: 'ended', endedAt: at } : { ...entry, run };
        }),
      );
      return left;
    },

    /** The service no longer knows a followed run: it is dropped, with the sentence to announce. */
    drop(runId: string, message: string): Promise<void> {
      const at = now();
      return update((entries) =>
        entries.map((entry) =>
          entry.run.id === runId && entry.phase === 'watching'
            ? { ...entry, phase: 'dropped', endedAt: at, message }
            : entry,
        ),
      );
    },

    /** Starts following a run, replacing an older entry for it. */
    async add(run: AutomationRun): Promise<WatchedRun> {
      const at = now();
      const ended = isEnded(run);
      const entry: WatchedRun = {
        run,
        phase: ended ? 'ended' : 'watching',
        since: at,
        endedAt: ended ? at : null,
        notified: false,
        seen: false,
        message: null,
      };
      await update((entries) => prune([entry, ...entries.filter((other) => other.run.id !== run.id)]));
      return entry;
    },

    /** Forgets a run; says whether it was there. */
    async remove(runId: string): Promise<boolean> {
      let removed = false;
      await update((entries) =>
        entries.filter((entry) => {
          const match = entry.run.id === runId;
          removed ||= match;
          return !match;
        }),
      );
      return removed;
    },

    markNotified(runId: string): Promise<void> {
      return update((entries) =>
        prune(entries.map((other) => (other.run.id === runId ? { ...other, notified: true } : other))),
      );
    },

    /** The person has looked at ended runs (one, or all): the badge's failure mark goes. */
    markSeen(runId?: string): Promise<void> {
      return update((entries) =>
        entries.map((entry) =>
          entry.phase !== 'watching' && (runId === undefined || entry.run.id === runId)
            ? { ...entry, seen: true }
            : entry,
        ),
      );
    },
  };
}

function prune(runs: WatchedRun[]): WatchedRun[] {
  let kept = 0;
  return runs.filter((entry) => entry.phase === 'watching' || !entry.notified || kept++ < KEEP_ENDED);
}
