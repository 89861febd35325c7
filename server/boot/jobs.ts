import { flushUsageTally } from '../accounts/usage-tally';
import { pruneOldAuditRecords } from '../audit/record-audit';
import { pickUpRunsQueuedHere } from '../automation/run-pickup';
import type { Job, Lifecycle } from '../core/lifecycle';
import { expireSignInsHourly } from '../dashboard/sign-in-expiry';
import { keepStatisticsCurrent } from '../db/statistics';
import { pruneOldEvents } from '../events/event-log';
import type { AppDeps } from '../http/deps';
import { maintainIdempotencyRecords } from '../http/idempotency';
import { webhookSender } from '../webhooks/sender';

/**
 * Every piece of the service's background work, in start order. Shutdown stops them in reverse: new work stops
 * coming first, runs end before their browsers are stopped, the node leaves the cluster once its sessions are
 * stopped, and the database listeners close last.
 */
export function backgroundJobs(deps: AppDeps): Job[] {
  const { db, clock, log, keyCache, sessions, automation } = deps;
  let stopHearingKeys: () => Promise<void> = async () => {};
  const jobs: (Job | null)[] = [
    deps.tracing,
    {
      name: 'key cache',
      start: async () => {
        stopHearingKeys = await keyCache.listen(db);
      },
      stop: () => stopHearingKeys(),
    },
    // Stops after the requests: the last ones counted are written.
    flushUsageTally(deps.usageTally, () => clock.now().getTime(), log),
    keepStatisticsCurrent(db, log),
    deps.relay,
    pruneOldEvents(db, clock),
    pruneOldAuditRecords(db, clock),
    deps.handoff.expiry,
    deps.membership.heartbeats,
    { name: 'sessions', start: () => sessions.reconcile(), stop: () => sessions.stopAll('service_shutdown') },
    sessions.leases,
    { name: 'automation runs', start: () => automation.reconcile(), stop: () => automation.drain() },
    deps.proxyChecks.job,
    // Agents' tabs close before their browsers stop.
    { name: 'agent pages', stop: () => deps.pages.releaseAll() },
    pickUpRunsQueuedHere({ db, nodeId: deps.nodeId, automation, log }),
    deps.queue.job,
    webhookSender({ db, clock, log, publisher: deps.publisher, settings: deps.config.webhooks }),
    expireSignInsHourly(db, clock),
    maintainIdempotencyRecords(db, clock),
  ];
  return jobs.filter((job) => job !== null);
}

/** Hooks the jobs into start-up (in order) and shutdown (in reverse), each with its own AbortSignal. */
export function scheduleJobs(jobs: Job[], lifecycle: Lifecycle): void {
  for (const job of jobs) {
    const stopping = new AbortController();
    lifecycle.onStart(job.name, async () => {
      await job.start?.(stopping.signal);
      if (!job.every) return;
      const timer = setInterval(job.every.run, job.every.ms).unref();
      stopping.signal.addEventListener('abort', () => clearInterval(timer));
    });
    lifecycle.onShutdown(job.name, async () => {
      stopping.abort();
      await job.stop?.();
    });
  }
}
