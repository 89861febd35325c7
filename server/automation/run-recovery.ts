import type { Clock } from '../core/clock';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import { claimOrphanedRun, findActiveRunsOfNode, findOrphanedRuns } from '../store/node-runs';
import { isWaiting } from '../store/room-waits';
import { retryAt } from './passing-failure';
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
  clock: Clock;
  changes: Pick<RunChanges, 'finish' | 'waitAgain'>;
}): RunRecovery {
  const { db, log, nodeId, changes, clock } = deps;
  return {
    async sweepOrphans() {
      for (const run of await findOrphanedRuns(db)) {
        if (!(await claimOrphanedRun(db, run))) continue;
        log.warn('run lost with its node', { run_id: run.id, node_id: run.node_id });
        // One that had not started waits for room on another node; one that had is retried, within bounds.
        if (run.status === 'queued') {
          await changes.waitAgain(run);
          continue;
        }
        const at = retryAt(run.retries, clock.now());
        if (at) {
          await changes.waitAgain(run, { retry: true, notBefore: at });
          continue;
        }
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
        // Claimed from the line but not started: back in its place.
        if (run.status === 'queued' && (await isWaiting(db, run.id))) {
          await changes.waitAgain(run);
          continue;
        }
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
