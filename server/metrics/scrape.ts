import type { Gauge } from 'prom-client';
import { registry, runsByState, sessionsByState } from '../core/metrics';
import type { Database } from '../db/driver';
import { type CountByState, countActiveRuns, countLiveSessionsOfNode } from '../store/gauges';

/** The registry as Prometheus text, its gauges read from the database first. */
export async function scrapeMetrics(db: Database, nodeId: string): Promise<string> {
  const [sessions, runs] = await Promise.all([countLiveSessionsOfNode(db, nodeId), countActiveRuns(db)]);
  setCounts(sessionsByState, ['starting', 'running', 'stopping'], sessions);
  setCounts(runsByState, ['queued', 'running'], runs);
  return registry.metrics();
}

function setCounts(gauge: Gauge<'state'>, states: string[], rows: CountByState[]): void {
  const counts = new Map(rows.map((row) => [row.state, row.count]));
  for (const state of states) gauge.set({ state }, counts.get(state) ?? 0);
}
