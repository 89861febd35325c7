import type { ApiClient } from '../../lib/api/client';
import { ApiError } from '../../lib/api/errors';
import type { QuotaSnapshot } from '../../lib/api/rate-limit';
import { onePassAtATime } from '../../lib/one-pass-at-a-time';
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
import { announceEnded } from './announcements';
import type { Stored } from './in-turn';
import type { WatchList } from './watch-list';

/** Waits up to this long are kept by a timer in the live worker (Chrome ends an idle worker after 30 s). */
const TIMER_LIMIT_MS = 25_000;
/** Chrome fires an alarm no sooner than 30 s after it is set; a request (a long-poll included) ends before. */
const ALARM_MIN_MS = 30_000;
/** How many of the account's latest runs one list request reads. */
export const RECENT_RUNS = 50;

export interface PollLoopDeps {
  /** A client for the service, or null while no key is set. */
  api(): Promise<ApiClient | null>;
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

export interface PollLoop {
  /** Plans and sends until the next request is not due yet; one at a time, whoever asks. */
  wake(): Promise<void>;
  /** The followed set changed: a request in flight was planned for the old one. */
  replan(): void;
}

/**
 * Polls the followed runs while the stream is not live. Everything it must remember is in storage, so a worker
 * ended at any moment resumes where it was: each wake plans the next request from the stored history and the
 * quota, sends it when due, and arms a timer (short waits) and the alarm (the backstop).
 */
export function createPollLoop(deps: PollLoopDeps, list: WatchList): PollLoop {
  let cancelTimer: (() => void) | null = null;
  let inFlight: AbortController | null = null;
  const wake = onePassAtATime(tick).run;

  async function tick(): Promise<void> {
    cancelTimer?.();
    cancelTimer = null;
    for (;;) {
      await announceEnded(list, deps.announce);
      const [runs, history, quota] = await Promise.all([
        list.read(),
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
        return { history: afterAnswer(history, await list.record(data, true)), counted: true };
      }
      const { runId, wait, afterVersion } = request;
      const longPoll = wait > 0 ? { wait, after_version: afterVersion } : {};
      await list.record([await api.getRun(runId, longPoll, { signal })], false);
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
      await list.drop(request.runId, error.userMessage);
      return afterAnswer(history, without(history.left, request.runId));
    }
    return afterFailure(history, now);
  }

  return {
    wake,
    replan() {
      inFlight?.abort();
      wake().catch(() => undefined);
    },
  };
}

function without(ids: string[], id: string): string[] {
  return ids.filter((other) => other !== id);
}
