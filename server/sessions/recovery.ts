import { findLiveSessionsOfNode, findOrphanedSessions, markStopped } from '../store/sessions';
import { changeSession, type SessionParts } from './parts';
import type { SessionStopper } from './stop-session';

/** Sessions a crash left live: this node's own on start-up, and those of nodes that left the cluster. */
export interface SessionRecovery {
  reconcile(): Promise<void>;
  sweepOrphans(): Promise<void>;
  endLostBrowsers(): Promise<void>;
}

export function createSessionRecovery(
  parts: SessionParts,
  stopper: Pick<SessionStopper, 'stopLeftover' | 'endBrowser'>,
): SessionRecovery {
  const { db, clock, log, events, cluster, browsers } = parts;
  return {
    async reconcile() {
      const leftovers = await findLiveSessionsOfNode(db, cluster.nodeId);
      for (const row of leftovers) {
        await stopper.stopLeftover(row);
        await changeSession(events, (tx) => markStopped(tx, clock, row.id, 'service_shutdown'));
      }
      if (leftovers.length > 0)
        log.info('reconciled sessions left by an earlier run', { count: leftovers.length });
    },
    async sweepOrphans() {
      for (const row of await findOrphanedSessions(db, cluster.nodeId)) {
        log.warn('session lost with its node', { session_id: row.id, node_id: row.node_id });
        await changeSession(events, (tx) => markStopped(tx, clock, row.id, 'node_lost'));
      }
    },
    async endLostBrowsers() {
      if (browsers.size === 0) return;
      const live = new Set((await findLiveSessionsOfNode(db, cluster.nodeId)).map((row) => row.id));
      for (const sessionId of [...browsers.keys()])
        if (!live.has(sessionId)) await stopper.endBrowser(sessionId);
    },
  };
}
