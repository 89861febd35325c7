import type { ApiClient } from '../../lib/api/client';
import { ApiError } from '../../lib/api/errors';
import type { QuotaSnapshot } from '../../lib/api/rate-limit';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import {
  afterAnswer,
  afterFailure,
  afterRateLimit,
  type PollHistory,
  type PollRequest,
  paidFor,
  planPoll,
} from '../../lib/scheduling/watch-plan';
import type { WatchedRun } from '../../lib/storage';
import { change, type Stored } from './in-turn';

export const WATCH_ALARM = 'watch';
/** Waits up to this long are kept by a timer in the live worker (Chrome ends an idle worker after 30 s). */
const TIMER_LIMIT_MS = 25_000;
/** Chrome fires an alarm no sooner than 30 s after it is set; a request (a long-poll included) ends before. */
const ALARM_MIN_MS = 30_000;
/** Ended runs kept for the popup's list, besides those still followed or not yet announced. */
const KEEP_ENDED = 20;
const ENDED: readonly string[] = ['succeeded', 'failed', 'cancelled'];
/** How many of the account's latest runs one list request reads. */
const RECENT_RUNS = 50;
/** Runs the stream reported before anyone followed them (a run reports before its start is answered). */
const KEEP_REPORTED = 20;

export type { Stored };

/** What the watcher needs from its surroundings: the worker gives the browser's, the simulation virtual ones. */
export interface WatcherDeps {
  /** A client for the service, or null while no key is set. */
  api(): Promise<ApiClient | null>;
  runs: Stored<WatchedRun[]>;
  history: Stored<PollHistory>;
  quota: { getValue(): Promise<QuotaSnapshot | null> };
  now(): number;
  setTimer(callback: () => void, ms: number): () => void;
  /** The backstop that wakes a worker Chrome has ended. */
  alarm: { set(at: number): Promise<void>; clear(): Promise<void> };
  /** Announces a run that ended or was dropped. Called once per run (again only if the worker was ended first). */
  announce(entry: WatchedRun): Promise<void>;
  /** Whether the event stream is live: it reports every change of the runs, and the watcher need not poll. */
  streaming(): boolean;
}

export type Watcher = ReturnType<typeof createWatcher>;

export function isEnded(run: AutomationRun): boolean {
  return ENDED.includes(run.status);
}

/**
 * Follows runs to their end. Everything it must remember is in storage, so a worker ended at any moment
 * resumes where it was: `wake()` on start-up and on the alarm plans the next request from the stored history
 * and the quota, sends it when due, and arms a timer (short waits) and the alarm (the backstop).
 */
export function createWatcher(deps: WatcherDeps) {
  let cancelTimer: (() => void) | null = null;
  let inFlight: AbortController | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  const reported = new Map<string, AutomationRun>();

  /** Read-modify-write of the runs list, in turn with the worker's other writes. */
  const update = (next: (runs: WatchedRun[]) => WatchedRun[]) => change(deps.runs, next);

  /** Plans and sends until the next request is not due yet; one at a time, whoever asks. */
  function wake(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await tick();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  }

  /** The followed set changed: a request in flight was planned for the old one. */
  function replan(): void {
    inFlight?.abort();
    wake().catch(() => undefined);
  }

  async function tick(): Promise<void> {
    cancelTimer?.();
    cancelTimer = null;
    for (;;) {
      await announceEnded();
      const [runs, history, quota] = await Promise.all([
        deps.runs.getValue(),
        deps.history.getValue(),
        deps.quota.getValue(),
      ]);
      const now = deps.now();
      const followed = runs.filter((entry) => entry.phase === 'watching');
      // The alarm stays as the backstop: a worker ended with its stream wakes to poll.
      if (deps.streaming()) return followed.length ? deps.alarm.set(now + ALARM_MIN_MS) : deps.alarm.clear();
      const plan = planPoll({
        now,
        runs: followed.map(({ run }) => ({ id: run.id, version: run.version })),
        quota,
        history,
      });
      if (plan.kind === 'idle') return deps.alarm.clear();
      if (plan.at > now) return arm(plan.at, now);
      // Saved, and the alarm set, before sending: a worker ended mid-request still spaces its successor and is
      // woken again once the request would have ended.
      const attempt = paidFor(history, now, quota);
      await deps.history.setValue(attempt);
      await deps.alarm.set(now + ALARM_MIN_MS);
      const outcome = await poll(plan.request, attempt);
      const { owed } = paidFor(history, now, await deps.quota.getValue(), outcome.counted ? 1 : 0);
      await deps.history.setValue({ ...outcome.history, owed });
    }
  }

  async function arm(at: number, now: number): Promise<void> {
    await deps.alarm.set(Math.max(at, now + ALARM_MIN_MS));
    if (at - now <= TIMER_LIMIT_MS) {
      cancelTimer = deps.setTimer(() => {
        wake().catch(() => undefined);
      }, at - now);
    }
  }

  /** Sends one request; says what it taught and whether the service counted it against the quota. */
  async function poll(
    request: PollRequest,
    history: PollHistory,
  ): Promise<{ history: PollHistory; counted: boolean }> {
    const api = await deps.api();
    if (!api) return { history: afterFailure(history, deps.now()), counted: false };
    const controller = new AbortController();
    inFlight = controller;
    const signal = controller.signal;
    try {
      if (request.kind === 'recent') {
        const { data } = await api.listRuns({ limit: RECENT_RUNS }, { signal });
        return { history: afterAnswer(history, await record(data, true)), counted: true };
      }
      const { runId, wait, afterVersion } = request;
      const longPoll = wait > 0 ? { wait, after_version: afterVersion } : {};
      await record([await api.getRun(runId, longPoll, { signal })], false);
      return { history: afterAnswer(history, without(history.left, runId)), counted: true };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return {
        history: await failed(error, request, history),
        counted: error.status !== 429 && error.code !== 'network_error',
      };
    } finally {
      inFlight = null;
    }
  }

  async function failed(error: ApiError, request: PollRequest, history: PollHistory): Promise<PollHistory> {
    const now = deps.now();
    // Abandoned because the followed set changed: nothing went wrong.
    if (error.code === 'aborted') return history;
    if (error.status === 429) return afterRateLimit(history, now, error.retryAfter);
    if (request.kind === 'run' && error.code === 'not_found') {
      const { runId } = request;
      await update((runs) =>
        runs.map((entry) =>
          entry.run.id === runId && entry.phase === 'watching'
            ? { ...entry, phase: 'dropped', endedAt: now, message: error.userMessage }
            : entry,
        ),
      );
      return afterAnswer(history, without(history.left, runId));
    }
    return afterFailure(history, now);
  }

  /** Saves what the service said about followed runs; with the recent list, returns the ones missing from it. */
  async function record(fresh: AutomationRun[], isRecentList: boolean): Promise<string[]> {
    const byId = new Map(fresh.map((run) => [run.id, run]));
    const left: string[] = [];
    const now = deps.now();
    await update((runs) =>
      runs.map((entry) => {
        if (entry.phase !== 'watching') return entry;
        const run = byId.get(entry.run.id);
        if (!run) {
          if (isRecentList) left.push(entry.run.id);
          return entry;
        }
        if (run.version === entry.run.version && run.status === entry.run.status) return entry;
        return isEnded(run) ? { ...entry, run, phase: 'ended', endedAt: now } : { ...entry, run };
      }),
    );
    return left;
  }

  async function announceEnded(): Promise<void> {
    const pending = (await deps.runs.getValue()).filter(
      (entry) => entry.phase !== 'watching' && !entry.notified,
    );
    for (const entry of pending) {
      try {
        await deps.announce(entry);
      } catch (error) {
        // A notification that cannot be shown must not stop the watching of the others.
        console.warn('Profile Pilot worker: could not announce a run', error);
      }
      await update((runs) =>
        prune(runs.map((other) => (other.run.id === entry.run.id ? { ...other, notified: true } : other))),
      );
    }
  }

  /** A run's change the event stream reported (a run's full output is read when the event left it out). */
  async function apply(run: AutomationRun & { output_omitted?: boolean }): Promise<void> {
    const followed = (await deps.runs.getValue()).some((entry) => entry.run.id === run.id);
    if (!followed) {
      reported.delete(run.id);
      reported.set(run.id, run);
      for (const id of reported.keys()) if (reported.size > KEEP_REPORTED) reported.delete(id);
      return;
    }
    const api = run.output_omitted ? await deps.api() : null;
    await record([api ? await api.getRun(run.id) : run], false);
    // Not awaited: a request planned before the stream went live must not hold the next event.
    wake().catch(() => undefined);
  }

  return {
    wake,

    apply,

    /** The stream went live (a request in flight is no longer needed) or dropped (polling takes over). */
    streamChanged: replan,

    /** The stream opened without a point to resume from: one list of recent runs brings the followed up to date. */
    async catchUp(): Promise<void> {
      const api = await deps.api();
      if (!api) return;
      await record((await api.listRuns({ limit: RECENT_RUNS })).data, false);
      await wake();
    },

    /** Starts following a run (just started by the person), replacing an older entry for it. */
    async watch(run: AutomationRun): Promise<WatchedRun> {
      const now = deps.now();
      const ended = isEnded(run);
      const entry: WatchedRun = {
        run,
        phase: ended ? 'ended' : 'watching',
        since: now,
        endedAt: ended ? now : null,
        notified: false,
        seen: false,
        message: null,
      };
      await update((runs) => prune([entry, ...runs.filter((other) => other.run.id !== run.id)]));
      const newer = reported.get(run.id);
      if (newer && newer.version > run.version) apply(newer).catch(() => undefined);
      replan();
      return entry;
    },

    /** Stops following a run (the run itself goes on) and forgets it. */
    async cancel(runId: string): Promise<{ cancelled: boolean }> {
      let cancelled = false;
      await update((runs) =>
        runs.filter((entry) => {
          const match = entry.run.id === runId;
          cancelled ||= match;
          return !match;
        }),
      );
      if (cancelled) replan();
      return { cancelled };
    },

    /** The person has looked at ended runs (one, or all): the badge's failure mark goes. */
    markSeen(runId?: string): Promise<void> {
      return update((runs) =>
        runs.map((entry) =>
          entry.phase !== 'watching' && (runId === undefined || entry.run.id === runId)
            ? { ...entry, seen: true }
            : entry,
        ),
      );
    },
  };
}

function without(ids: string[], id: string): string[] {
  return ids.filter((other) => other !== id);
}

function prune(runs: WatchedRun[]): WatchedRun[] {
  let kept = 0;
  return runs.filter((entry) => entry.phase === 'watching' || !entry.notified || kept++ < KEEP_ENDED);
}
