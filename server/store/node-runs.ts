import type { Queryable } from '../db/driver';
import { RUN_COLUMNS, type RunRow, runIsActive } from './runs';

/** Queued or running runs whose node has left the cluster without finishing them (it was lost). */
export async function findOrphanedRuns(db: Queryable): Promise<RunRow[]> {
  return db.query<RunRow>(
    `select ${RUN_COLUMNS} from automation_runs where ${runIsActive()} and node_id is not null
        and not exists (select 1 from nodes n where n.id = automation_runs.node_id) order by seq`,
  );
}

/**
 * Takes an orphaned run from its lost node for this sweep: false when another node's sweep took it first, so that
 * a run is requeued, and its retry counted, once.
 */
export async function claimOrphanedRun(
  db: Queryable,
  run: { id: string; node_id: string | null },
): Promise<boolean> {
  const rows = await db.query(
    'update automation_runs set node_id = null where id = $1 and node_id = $2 returning id',
    [run.id, run.node_id],
  );
  return rows.length > 0;
}

/** This node's queued or running runs (and those from before there were nodes, but not those waiting for room). */
export async function findActiveRunsOfNode(db: Queryable, nodeId: string): Promise<RunRow[]> {
  return db.query<RunRow>(
    `select ${RUN_COLUMNS} from automation_runs
      where ${runIsActive()} and (node_id = $1 or node_id is null
        and not exists (select from room_waits w where w.run_id = automation_runs.id)) order by seq`,
    [nodeId],
  );
}
