import type { Database } from '../db/driver';

export interface CountByState {
  state: string;
  count: number;
}

/** This node's live sessions, counted by status. */
export function countLiveSessionsOfNode(db: Database, nodeId: string): Promise<CountByState[]> {
  return db.query<CountByState>(
    `select status as state, count(*)::int as count from sessions
      where node_id = $1 and status in ('starting', 'running', 'stopping') group by status`,
    [nodeId],
  );
}

/** The cluster's runs that are queued or running, counted by status. */
export function countActiveRuns(db: Database): Promise<CountByState[]> {
  return db.query<CountByState>(
    `select status as state, count(*)::int as count from automation_runs
      where status in ('queued', 'running') group by status`,
  );
}
