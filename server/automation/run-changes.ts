import { boundedText, MAX_TEXT_BYTES } from '../core/bounded-text';
import type { Clock } from '../core/clock';
import type { Limits } from '../core/config';
import type { Queryable } from '../db/driver';
import { type EventLog, runEventData } from '../events/event-log';
import { notifyRoom, waitForRoom } from '../store/room-waits';
import { finishRun, markRunStarted, type RunRow, requeueRun, toRun } from '../store/runs';
import type { RunScriptResult } from './runner';

/** Records the changes of runs, each with its event in the same transaction (which wakes the run's long polls). */
export interface RunChanges {
  changed(
    type: 'run.started' | 'run.step' | 'run.finished',
    change: (tx: Queryable) => Promise<RunRow>,
    stepIndex?: number,
  ): Promise<RunRow>;
  /** Ends a run, its error cut to the bound of a run's output. */
  finish(
    runId: string,
    status: RunScriptResult['status'],
    output: Record<string, unknown>,
    error: string | null,
  ): Promise<RunRow>;
  /** The run has its session and runs; null if it was cancelled while its browser started. */
  start(runId: string, session: { sessionId: string; ownsSession: boolean }): Promise<RunRow | null>;
  /** The run waits for room again, from `notBefore` on: as it is, or afresh (`retry`) after a passing failure. */
  waitAgain(run: RunRow, options?: { retry: true; notBefore: Date }): Promise<void>;
  /** A step's error cut to the bound of a step's output. */
  stepError(error: string): string;
}

export function createRunChanges(deps: {
  clock: Clock;
  events: EventLog;
  limits: Pick<Limits, 'maxStepOutputBytes' | 'maxRunOutputBytes'>;
}): RunChanges {
  const { clock, events, limits } = deps;
  // An error is output too: cut to a few KB, and never heavier than the output a step or a run may store.
  const stepErrorBytes = Math.min(MAX_TEXT_BYTES, limits.maxStepOutputBytes);
  const runErrorBytes = Math.min(MAX_TEXT_BYTES, limits.maxRunOutputBytes);

  async function changed(
    type: 'run.started' | 'run.step' | 'run.finished',
    change: (tx: Queryable) => Promise<RunRow>,
    stepIndex?: number,
  ): Promise<RunRow> {
    const row = await events.writeWithEvents(async (tx, emit) => {
      const changedRow = await change(tx);
      await emit(changedRow.account_id, type, runEventData(toRun(changedRow), stepIndex));
      return changedRow;
    });
    return row;
  }

  return {
    changed,
    finish(runId, status, output, error) {
      const text = error === null ? null : boundedText(error, runErrorBytes);
      // Its profile may be what a run waiting in line waits for.
      return changed('run.finished', async (tx) => {
        await notifyRoom(tx);
        return finishRun(tx, clock, runId, { status, output, error: text });
      });
    },
    stepError: (error) => boundedText(error, stepErrorBytes),
    start: (runId, session) =>
      events.writeWithEvents(async (tx, emit) => {
        const row = await markRunStarted(tx, clock, runId, session);
        if (row) await emit(row.account_id, 'run.started', runEventData(toRun(row)));
        return row;
      }),
    waitAgain: (run, options) =>
      events.writeWithEvents(async (tx, emit) => {
        if (options?.retry) {
          const row = await requeueRun(tx, run);
          await emit(row.account_id, 'run.queued', runEventData(toRun(row)));
        }
        await waitForRoom(tx, clock, run, options?.notBefore);
      }),
  };
}
