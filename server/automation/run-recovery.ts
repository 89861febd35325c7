import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import { findActiveRunsOfNode, findOrphanedRuns } from '../store/runs';
import type { RunChanges } from './run-changes';

/** Runs a crash left unfinished: this node's own on start-up, and those of nodes that left the cluster. */
export interface RunRecovery {
  reconcile(): Promise<void>;
  sweepOrphans(): Promise<void>;
}

export function createRunRecovery(deps: {
  db: Database;
  log: Logger;
  nodeId: string;
  changes: Pick<RunChanges, 'finish'>;
}): RunRecovery {
  const { db, log, nodeId, changes } = deps;
  return {
    async sweepOrphans() {
      for (const run of await findOrphanedRuns(db)) {
        log.warn('run lost with its node', { run_id: run.id, node_id: run.node_id });
        await changes.finish(
          run.id,
          'failed',
          run.output,
          'The machine running this run stopped answering, and its browser with it; run the script again.',
        );
      }
    },
    async reconcile() {
      const interrupted = await findActiveRunsOfNode(db, nodeId);
      for (const run of interrupted) {
        await changes.finish(
          run.id,
          'failed',
          run.output,
          `The service restarted while this run was ${run.status}.`,
        );
      }
      if (interrupted.length > 0)
        log.info('failed runs interrupted by a restart', { count: interrupted.length });
    },
  };
}
