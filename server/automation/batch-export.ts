import { csvLine } from '../../lib/csv';
import { NotFound } from '../core/domain-errors';
import type { Database } from '../db/driver';
import { batchOutputNames, type ExportedRun, exportedRunsPage, findBatch } from '../store/batches';
import type { Reader } from '../store/scope';

const FIXED_COLUMNS = ['run_id', 'profile_id', 'profile_name', 'status', 'error', 'finished_at'] as const;
/** Runs read from the database at a time while a file is written: outputs may be megabytes each. */
const PAGE = 20;

/** A file of a batch's outputs: one row per profile, its latest run. */
export interface BatchFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  fileName: string;
}

/**
 * The outputs of the account's batch as CSV or JSON, written a page of runs at a time as the client reads, never
 * whole in memory (an export of a thousand runs of megabytes each would need gigabytes).
 */
export async function exportBatch(
  db: Database,
  reader: Reader,
  id: string,
  format: 'csv' | 'json',
  pageSize = PAGE,
): Promise<BatchFile> {
  if (!(await findBatch(db, reader, id))) throw new NotFound('batch');
  const outputNames = format === 'csv' ? (await batchOutputNames(db, id)).sort() : [];
  const line =
    format === 'json'
      ? (run: ExportedRun, first: boolean) =>
          `${first ? '' : ',\n'}${JSON.stringify({ ...fixedCells(run), output: run.output })}`
      : (run: ExportedRun) => {
          const fixed = fixedCells(run);
          return csvLine([
            ...FIXED_COLUMNS.map((name) => fixed[name]),
            ...outputNames.map((name) => run.output[name]),
          ]);
        };
  const encoder = new TextEncoder();
  let afterSeq = 0;
  let written = 0;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        encoder.encode(format === 'json' ? '[\n' : csvLine([...FIXED_COLUMNS, ...outputNames])),
      );
    },
    async pull(controller) {
      const runs = await exportedRunsPage(db, id, afterSeq, pageSize);
      for (const run of runs) controller.enqueue(encoder.encode(line(run, written++ === 0)));
      afterSeq = runs.at(-1)?.seq ?? afterSeq;
      if (runs.length < pageSize) {
        if (format === 'json') controller.enqueue(encoder.encode('\n]\n'));
        controller.close();
      }
    },
  });
  return format === 'json'
    ? { body, contentType: 'application/json', fileName: `${id}.json` }
    : { body, contentType: 'text/csv; charset=utf-8', fileName: `${id}.csv` };
}

function fixedCells(run: ExportedRun): Record<(typeof FIXED_COLUMNS)[number], string | null> {
  return {
    run_id: run.id,
    profile_id: run.profile_id,
    profile_name: run.profile_name,
    status: run.status,
    error: run.error,
    finished_at: run.finished_at?.toISOString() ?? null,
  };
}
