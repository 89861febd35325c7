import type { Job, Lifecycle } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import { heartbeat, leaveCluster, registerNode, removeLostNodes } from '../store/nodes';

export interface Membership {
  /** Told to stop: this node takes no new sessions while it saves and stops its own. */
  draining(): boolean;
  /** Where the other nodes reach this one, once it listens (unless NODE_URL said it). */
  listeningAt(url: string): Promise<void>;
  /** Joins at start, heartbeats, and leaves at its turn in shutdown. */
  heartbeats: Job;
}

export interface MembershipDeps {
  db: Database;
  nodeId: string;
  /** NODE_URL, when the operator set where the other nodes reach this one. */
  url: string | null;
  capacity: number;
  /** NODE_LOST_AFTER: a node heartbeats three times within it, so one late beat never loses it. */
  lostAfterMs: number;
  log: Logger;
  lifecycle: Lifecycle;
  /** Stops, as `node_lost`, what nodes that left without stopping it still hold in the database. */
  sweepOrphans(): Promise<void>;
  /** Ends the browsers this node runs for sessions no longer live here (stopped as lost by another node). */
  endLostBrowsers(): Promise<void>;
}

/**
 * This process as a node of the cluster: it joins at start, heartbeats, declares nodes that stopped heartbeating
 * lost (and stops what they held), and leaves at shutdown once its own sessions are stopped. On the embedded
 * database there is one node, and the same code keeps its row.
 */
export function joinCluster(deps: MembershipDeps): Membership {
  const { db, nodeId, log, lifecycle } = deps;
  let url = deps.url ?? '';
  let draining = false;
  let beating: Promise<void> = Promise.resolve();

  async function beat(): Promise<void> {
    const known = await heartbeat(db, nodeId, draining);
    if (!known) {
      // Declared lost while alive (a stall longer than the limit): the sessions another node stopped as lost lose
      // their browsers below; those it had not reached yet stay this node's.
      log.warn('this node was declared lost by another and joins again', { node_id: nodeId });
      await registerNode(db, { id: nodeId, url, capacity: deps.capacity });
    }
    await deps.endLostBrowsers();
    const lost = await removeLostNodes(db, nodeId, deps.lostAfterMs);
    if (lost.length > 0) log.warn('nodes lost', { node_ids: lost });
    await deps.sweepOrphans();
  }

  const tick = () => {
    beating = beat().catch((error: unknown) => log.error('cluster heartbeat failed', { error }));
  };

  lifecycle.shutdownSignal.addEventListener('abort', () => {
    draining = true;
    void heartbeat(db, nodeId, true).catch(() => {});
  });

  return {
    draining: () => draining,
    // Listed before the sessions in boot/jobs.ts, so it stops after them: the node leaves once they are stopped.
    heartbeats: {
      name: 'cluster membership',
      async start() {
        await registerNode(db, { id: nodeId, url, capacity: deps.capacity });
        await deps.sweepOrphans();
      },
      every: { ms: deps.lostAfterMs / 3, run: tick },
      async stop() {
        await beating;
        await leaveCluster(db, nodeId);
      },
    },
    async listeningAt(listening) {
      if (deps.url) return;
      url = listening;
      await registerNode(db, { id: nodeId, url, capacity: deps.capacity });
    },
  };
}
