import type { Script } from '../../lib/api/inputs/automation';
import type { Batch } from '../../lib/api/schemas/automation';
import type { Clock } from '../core/clock';
import { NotFound } from '../core/domain-errors';
import type { Database } from '../db/driver';
import { findBatch, insertBatch, latestRunsOfBatch, listBatches } from '../store/batches';
import type { Holder } from '../store/leases';
import { type Page, toPage } from '../store/pagination';
import { everything } from '../store/scope';
import { toBatch } from './batch-summary';
import type { RunScheduler } from './scheduler';

export interface BatchDeps {
  db: Database;
  clock: Clock;
  automation: RunScheduler;
}

/** What became of one profile of a batch: its run queued, or why not. */
export type BatchItem = { id: string; runId: string } | { id: string; error: unknown };

/** Queues `script` on each profile as one batch, in order; a profile that cannot take it is answered why. */
export async function queueBatch(
  { db, clock, automation }: BatchDeps,
  accountId: string,
  holder: Holder,
  profileIds: string[],
  script: Script,
  name: string | null,
): Promise<{ batchId: string; items: BatchItem[] }> {
  const batchId = await insertBatch(db, clock, accountId, name);
  const items: BatchItem[] = [];
  for (const id of profileIds) {
    const body = { profile_id: id, script, ...(name ? { name } : {}) };
    try {
      const run = await automation.enqueue(everything(accountId), holder, body, async () => {}, batchId);
      items.push({ id, runId: run.id });
    } catch (error) {
      items.push({ id, error });
    }
  }
  return { batchId, items };
}

/** The account's batch, summed up. */
export async function readBatch(
  { db, clock }: Pick<BatchDeps, 'db' | 'clock'>,
  accountId: string,
  id: string,
): Promise<Batch> {
  const row = await findBatch(db, accountId, id);
  if (!row) throw new NotFound('batch');
  return toBatch(row, clock.now());
}

/** A page of the account's batches, newest first, each summed up. */
export async function readBatches(
  { db, clock }: Pick<BatchDeps, 'db' | 'clock'>,
  accountId: string,
  page: { limit: number; after: number | null },
): Promise<Page<Batch>> {
  const now = clock.now();
  return toPage(await listBatches(db, accountId, page), page.limit, (row) => toBatch(row, now));
}

/** Queues again, in the same batch, the script of each profile whose latest run in it failed. */
export async function retryFailed(
  deps: BatchDeps,
  accountId: string,
  holder: Holder,
  id: string,
): Promise<Batch> {
  if (!(await findBatch(deps.db, accountId, id))) throw new NotFound('batch');
  for (const run of await latestRunsOfBatch(deps.db, id, 'failed')) {
    const body = { profile_id: run.profile_id, script: run.script, ...(run.name ? { name: run.name } : {}) };
    // A profile deleted since is left failed: its run has nothing to run on.
    await deps.automation
      .enqueue(everything(accountId), holder, body, async () => {}, id)
      .catch((error: unknown) => {
        if (!(error instanceof NotFound)) throw error;
      });
  }
  return readBatch(deps, accountId, id);
}
