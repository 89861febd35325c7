import type { Script } from '../../lib/api/inputs/automation';
import type { Batch } from '../../lib/api/schemas/automation';
import type { Clock } from '../core/clock';
import { NotFound } from '../core/domain-errors';
import type { Database } from '../db/driver';
import { profileHeld } from '../sessions/lease-errors';
import { findBatch, insertBatch, latestRunsOfBatch, listBatches } from '../store/batches';
import { type Holder, heldByOthers } from '../store/leases';
import { type Page, toPage } from '../store/pagination';
import type { Reader } from '../store/scope';
import { toBatch } from './batch-summary';
import type { RunScheduler } from './scheduler';

export interface BatchDeps {
  db: Database;
  clock: Clock;
  automation: RunScheduler;
}

/** What became of one profile of a batch: its run queued, or why not. */
export type BatchItem = { id: string; runId: string } | { id: string; error: unknown };

/**
 * Queues `script` on each profile as one batch, in order, in one transaction whatever their number (up to the bulk
 * cap); an id that is no profile of the account is answered not found, and a profile another member holds now is
 * answered `profile_held` and not queued (its run would only fail when its turn came).
 */
export async function queueBatch(
  { db, clock, automation }: BatchDeps,
  accountId: string,
  holder: Holder,
  profileIds: string[],
  script: Script,
  name: string | null,
): Promise<{ batchId: string; items: BatchItem[] }> {
  const held = await heldByOthers(db, accountId, profileIds, holder.id);
  const free = profileIds.filter((id) => !held.has(id));
  const batchId = await insertBatch(db, clock, accountId, name);
  const runs = await automation.enqueueBatch(accountId, holder, {
    id: batchId,
    profileIds: free,
    script,
    name,
  });
  const runOf = new Map(runs.map((run) => [run.profile_id, run.id]));
  const items = profileIds.map((id): BatchItem => {
    const runId = runOf.get(id);
    const heldBy = held.get(id);
    if (heldBy) return { id, error: profileHeld(heldBy.name, heldBy.heldBy) };
    return runId ? { id, runId } : { id, error: new NotFound('profile') };
  });
  return { batchId, items };
}

/** The account's batch, summed up, when the reader's scope holds all its profiles. */
export async function readBatch(
  { db, clock }: Pick<BatchDeps, 'db' | 'clock'>,
  reader: Reader,
  id: string,
): Promise<Batch> {
  const row = await findBatch(db, reader, id);
  if (!row) throw new NotFound('batch');
  return toBatch(row, clock.now());
}

/** A page of the account's batches, newest first, each summed up. */
export async function readBatches(
  { db, clock }: Pick<BatchDeps, 'db' | 'clock'>,
  reader: Reader,
  page: { limit: number; after: number | null },
): Promise<Page<Batch>> {
  const now = clock.now();
  return toPage(await listBatches(db, reader, page), page.limit, (row) => toBatch(row, now));
}

/** Queues again, in the same batch, the script of each profile whose latest run in it failed. */
export async function retryFailed(
  deps: BatchDeps,
  reader: Reader,
  holder: Holder,
  id: string,
): Promise<Batch> {
  if (!(await findBatch(deps.db, reader, id))) throw new NotFound('batch');
  // Runs of one batch share their script and name; grouped all the same, each group queued at once.
  const groups = new Map<string, { script: Script; name: string | null; profileIds: string[] }>();
  for (const run of await latestRunsOfBatch(deps.db, id, 'failed')) {
    const key = JSON.stringify([run.script, run.name]);
    const group = groups.get(key) ?? { script: run.script, name: run.name, profileIds: [] };
    group.profileIds.push(run.profile_id);
    groups.set(key, group);
  }
  // A profile deleted since is left failed: its run has nothing to run on.
  for (const group of groups.values())
    await deps.automation.enqueueBatch(reader.id, holder, { id, ...group });
  return readBatch(deps, reader, id);
}
