import type { Batch } from '../../lib/api/schemas/automation';
import { Conflict, NotFound } from '../core/domain-errors';
import { findBatch, latestRunsOfBatch, setBatchPaused } from '../store/batches';
import { notifyRoom } from '../store/room-waits';
import { isActiveRun } from '../store/runs';
import type { Reader } from '../store/scope';
import { type BatchDeps, readBatch } from './batches';

/** Pauses the batch: its runs that wait for room stay in line until it is resumed; those running go on. */
export async function pauseBatch(deps: BatchDeps, reader: Reader, id: string): Promise<Batch> {
  const batch = await readBatch(deps, reader, id);
  if (batch.finished) throw finished('pause');
  if (batch.paused) {
    throw new Conflict('batch_paused', 'This batch is already paused; resume it to let its runs go on.');
  }
  await setBatchPaused(deps.db, id, true);
  return readBatch(deps, reader, id);
}

/** Resumes a paused batch: its queued runs take their places in line again. */
export async function resumeBatch(deps: BatchDeps, reader: Reader, id: string): Promise<Batch> {
  const batch = await readBatch(deps, reader, id);
  if (!batch.paused) {
    throw new Conflict('batch_not_paused', 'This batch is not paused, so there is nothing to resume.');
  }
  await deps.db.transaction(async (tx) => {
    await setBatchPaused(tx, id, false);
    await notifyRoom(tx);
  });
  return readBatch(deps, reader, id);
}

/** Cancels every run of the batch that has not finished: queued ones never start, running ones stop. */
export async function cancelBatch(deps: BatchDeps, reader: Reader, id: string): Promise<Batch> {
  if (!(await findBatch(deps.db, reader, id))) throw new NotFound('batch');
  const active = (await latestRunsOfBatch(deps.db, id)).filter((run) => isActiveRun(run.status));
  if (active.length === 0) throw finished('cancel');
  // The queued first, so that none of them takes the room a stopping one frees.
  await deps.automation.cancelQueuedOfBatch(id);
  // Those running now, the queued ones that started meanwhile among them.
  const running = (await latestRunsOfBatch(deps.db, id, 'running')).map((run) => run.id);
  await Promise.all(running.map((runId) => deps.automation.cancel(reader, runId)));
  return readBatch(deps, reader, id);
}

function finished(act: 'pause' | 'cancel'): Conflict {
  return new Conflict('batch_finished', `This batch has finished; there is nothing left to ${act}.`);
}
