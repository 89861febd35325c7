import { NO_PEERS, type Peers } from '../cluster/peers';
import type { Clock } from '../core/clock';
import type { Config } from '../core/config';
import type { Logger } from '../core/log';
import type { Database, Queryable } from '../db/driver';
import type { EventLog } from '../events/event-log';
import { freeLeaseOfSession } from '../store/leases';
import { notifyRoom } from '../store/room-waits';
import { type SessionRow, toSession } from '../store/sessions';
import type { RunningBrowser } from './launch-browser';
import type { ProfileStateSync } from './profile-state';

/** What the sessions need to know of the cluster: who this node is, whether it is leaving, and the others. */
export interface ClusterSeat {
  nodeId: string;
  draining(): boolean;
  peers: Peers;
}

export const ALONE: ClusterSeat = { nodeId: 'nod_alone', draining: () => false, peers: NO_PEERS };

export type SessionConfig = Pick<
  Config,
  'dataDir' | 'chromePath' | 'headless' | 'egress' | 'limits' | 'proxyCheckUrl'
>;

/** What the session manager's jobs share: the service's parts, and the browsers this process holds. */
export interface SessionParts {
  db: Database;
  clock: Clock;
  config: SessionConfig;
  log: Logger;
  events: EventLog;
  cluster: ClusterSeat;
  profileState: ProfileStateSync;
  /** Browsers this process runs, by session id: the handles the sessions table cannot hold. */
  browsers: Map<string, RunningBrowser>;
  /** Browsers this process is starting, by session id. */
  launching: Map<string, Promise<unknown>>;
}

/**
 * Applies a change of a session and reports it as `session.<its new status>` in the same transaction; a session
 * that ends tells the queue that room came, and frees its profile's lease.
 */
export function changeSession(
  events: EventLog,
  change: (tx: Queryable) => Promise<SessionRow>,
): Promise<SessionRow> {
  return events.writeWithEvents(async (tx, emit) => {
    const row = await change(tx);
    const ended = row.status === 'stopped' || row.status === 'failed';
    if (ended) await freeLeaseOfSession(tx, row.id);
    if (row.status !== 'stopping') await emit(row.account_id, `session.${row.status}`, toSession(row));
    if (ended) await notifyRoom(tx);
    return row;
  });
}

/** Whether this node runs (or ran, before a restart) the session's browser. */
export function isHere(parts: Pick<SessionParts, 'cluster' | 'browsers'>, row: SessionRow): boolean {
  return row.node_id === null || row.node_id === parts.cluster.nodeId || parts.browsers.has(row.id);
}
