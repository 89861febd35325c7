import { NotFound } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import { findRun, type RunRow } from '../store/runs';
import type { Reader } from '../store/scope';

/** The reader's run of this id; another account's, or one outside the reader's scope, is not found. */
export async function runOf(db: Queryable, reader: Reader, id: string): Promise<RunRow> {
  const run = await findRun(db, reader, id);
  if (!run) throw new NotFound('run');
  return run;
}
