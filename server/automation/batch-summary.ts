import type { Batch } from '../../lib/api/schemas/automation';
import type { BatchRow } from '../store/batches';

/**
 * A batch summed up for the person: its runs counted by status (each profile by its latest run), a sentence
 * ("8 of 10 succeeded, 2 failed, 1 retried"), and when it should finish at the pace it has kept so far.
 */
export function toBatch(row: BatchRow, now: Date): Batch {
  const count = (status: keyof BatchRow['counts']) => row.counts[status] ?? 0;
  const [queued, running, succeeded, failed, cancelled] = [
    count('queued'),
    count('running'),
    count('succeeded'),
    count('failed'),
    count('cancelled'),
  ];
  const done = succeeded + failed + cancelled;
  const left = queued + running;
  const total = done + left;
  const parts = [`${succeeded} of ${total} succeeded`];
  if (failed) parts.push(`${failed} failed`);
  if (cancelled) parts.push(`${cancelled} cancelled`);
  if (row.retried) parts.push(`${row.retried} retried`);
  if (left) parts.push(`${left} not finished yet${row.paused ? ' (paused)' : ''}`);
  const finishAt = row.paused ? null : estimatedFinish(done, left, row.first_started_at, now);
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    total,
    queued,
    running,
    succeeded,
    failed,
    cancelled,
    finished: left === 0,
    paused: row.paused,
    retried: row.retried,
    estimated_finish_at: finishAt?.toISOString() ?? null,
    summary: parts.join(', '),
  };
}

/** `left` more runs at the pace of the `done` ones since the first started: null before one has finished. */
export function estimatedFinish(
  done: number,
  left: number,
  firstStartedAt: Date | null,
  now: Date,
): Date | null {
  if (left === 0 || done === 0 || firstStartedAt === null) return null;
  const perRun = Math.max(0, now.getTime() - firstStartedAt.getTime()) / done;
  return new Date(now.getTime() + Math.round(left * perRun));
}
