import { csvLine } from '../../lib/csv';
import { NotFound } from '../core/domain-errors';
import type { Database } from '../db/driver';
import { findBatch, latestRunsOfBatch } from '../store/batches';
import type { RunRow } from '../store/runs';

const FIXED_COLUMNS = ['run_id', 'profile_id', 'profile_name', 'status', 'error', 'finished_at'] as const;

/** A file of a batch's outputs: one row per profile, its latest run. */
export interface BatchFile {
  text: string;
  contentType: string;
  fileName: string;
}

/** The outputs of the account's batch as CSV or JSON. */
export async function exportBatch(
  db: Database,
  accountId: string,
  id: string,
  format: 'csv' | 'json',
): Promise<BatchFile> {
  if (!(await findBatch(db, accountId, id))) throw new NotFound('batch');
  const runs = await latestRunsOfBatch(db, id);
  if (format === 'json') {
    const rows = runs.map((run) => ({ ...fixedCells(run), output: run.output }));
    return { text: JSON.stringify(rows, null, 2), contentType: 'application/json', fileName: `${id}.json` };
  }
  const outputNames = [...new Set(runs.flatMap((run) => Object.keys(run.output)))].sort();
  const lines = [csvLine([...FIXED_COLUMNS, ...outputNames])];
  for (const run of runs) {
    const fixed = fixedCells(run);
    const cells = [
      ...FIXED_COLUMNS.map((name) => fixed[name]),
      ...outputNames.map((name) => run.output[name]),
    ];
    lines.push(csvLine(cells));
  }
  return { text: lines.join(''), contentType: 'text/csv; charset=utf-8', fileName: `${id}.csv` };
}

function fixedCells(run: RunRow): Record<(typeof FIXED_COLUMNS)[number], string | null> {
  return {
    run_id: run.id,
    profile_id: run.profile_id,
    profile_name: run.profile_name,
    status: run.status,
    error: run.error,
    finished_at: run.finished_at?.toISOString() ?? null,
  };
}
