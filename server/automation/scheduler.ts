import type { RunCreate, Script } from '../../lib/api/inputs/automation';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import type { Clock } from '../core/clock';
import type { Limits } from '../core/config';
import type { Logger } from '../core/log';
import type { Database, Queryable } from '../db/driver';
import { type EventLog, runEventData } from '../events/event-log';
import type { Handoff } from '../handoff/handoff';
import type { Served } from '../queue/room-queue';
import type { SessionManager } from '../sessions/manager';
import type { ClusterSeat } from '../sessions/parts';
import { cancelQueuedRuns, insertQueuedRuns } from '../store/batch-runs';
import type { Holder } from '../store/leases';
import { waitForRoom } from '../store/room-waits';
import {
  executorOfProfile,
  findQueuedRunsOfNode,
  findRun,
  insertRun,
  type RunRow,
  toRun,
} from '../store/runs';
import { everything, type Reader } from '../store/scope';
import { executeRun } from './execute';
import { createRunChanges } from './run-changes';
import { runOf } from './run-of';
import { createRunRecovery } from './run-recovery';
import { targetProfile } from './run-target';
import type { RunScriptOptions, RunScriptResult } from './runner';

export interface RunSchedulerDeps {
  limits: Pick<Limits, 'maxStepOutputBytes' | 'maxRunOutputBytes' | 'maxArtifactBytes'>;
  /** The data dir, whose `artifacts` folder holds the runs' screenshots. */
  dataDir: string;
  db: Database;
  clock: Clock;
  log: Logger;
  sessions: SessionManager;
  /** Where every change of a run is reported (`run.*` events), with the change. */
  events: EventLog;
  /** Where ask_human steps ask a person. */
  handoff?: Handoff;
  run?: (options: RunScriptOptions) => Promise<RunScriptResult>;
  /** This process among others on one database; alone when not given. */
  cluster?: Pick<ClusterSeat, 'nodeId' | 'peers'>;
}

export interface RunScheduler {
  /**
   * Checks the target, stores the run as queued (with `record`, in the same transaction) and schedules it; in
   * the batch `batchId` names, if given.
   */
  enqueue(
    reader: Reader,
    holder: Holder,
    body: RunCreate,
    record: (run: AutomationRun, tx: Queryable) => Promise<unknown>,
    batchId?: string,
  ): Promise<AutomationRun>;
  /**
   * Queues `script` on each of the account's profiles as runs of the batch, in order, in one transaction of a few
   * statements; answers the runs made, in order (an id that is no profile of the account gets none).
   */
  enqueueBatch(
    accountId: string,
    holder: Holder,
    batch: { id: string; profileIds: string[]; script: Script; name: string | null },
  ): Promise<AutomationRun[]>;
  cancel(reader: Reader, runId: string): Promise<AutomationRun>;
  /** Cancels every queued run of the batch at once; answers how many. */
  cancelQueuedOfBatch(batchId: string): Promise<number>;
  /** On start-up: runs this node had queued or running when it stopped end failed. */
  reconcile(): Promise<void>;
  /** Takes up the runs other nodes queued for this one (they go to the node that runs the profile's session). */
  pickUp(): Promise<void>;
  /** Executes a run the queue claimed for this node; resolves once it has its browser or could not get one. */
  serveRun(run: { run_id: string; account_id: string; profile_id: string }): Promise<Served>;
  /** Fails runs that waited for room on a profile that has since been deleted. */
  failDeleted(runIds: string[]): Promise<void>;
  /** Fails the runs of nodes that left the cluster without finishing them. */
  sweepOrphans(): Promise<void>;
  /** On shutdown: cancels what runs and waits for it to settle. */
  drain(): Promise<void>;
}

/** NOTIFY channel on which a node is told (its id as payload) that a run was queued for it. */
export const RUNS_QUEUED_CHANNEL = 'pp_runs_queued';

/** How long a cancel waits for the run to wind down (its own session stopped too) before answering its state. */
const CANCEL_SETTLE_MS = 10_000;

const CANCELLED_QUEUED = 'The run was cancelled before it started.';

/**
 * Schedules runs one at a time per profile (a profile has at most one session), in the order they came, on the
 * node that runs the profile's session; cancels them and drains them at shutdown. `execute.ts` runs each one.
 */
export function createRunScheduler(deps: RunSchedulerDeps): RunScheduler {
  const { db, clock, log, events } = deps;
  const nodeId = deps.cluster?.nodeId ?? 'nod_alone';
  const changes = createRunChanges(deps);
  const recovery = createRunRecovery({ db, log, nodeId, changes, clock });
  const chains = new Map<string, Promise<void>>();
  /** Runs scheduled on this node, so that a run picked up twice (notified, then polled) runs once. */
  const scheduled = new Set<string>();
  const running = new Map<string, { controller: AbortController; settled: Promise<void> }>();
  let shuttingDown = false;

  function schedule(
    run: Pick<RunRow, 'id' | 'profile_id' | 'account_id'>,
    served: (outcome: Served) => void = () => {},
  ): void {
    if (scheduled.has(run.id)) {
      served('done');
      return;
    }
    scheduled.add(run.id);
    const previous = chains.get(run.profile_id) ?? Promise.resolve();
    const next = previous.then(() => perform(run.id, run.account_id, served));
    chains.set(run.profile_id, next);
    void next.finally(() => {
      scheduled.delete(run.id);
      if (chains.get(run.profile_id) === next) chains.delete(run.profile_id);
    });
  }

  async function perform(runId: string, accountId: string, served: (outcome: Served) => void): Promise<void> {
    let told = false;
    const tell = (outcome: Served) => {
      if (!told) served(outcome);
      told = true;
    };
    const run = await findRun(db, everything(accountId), runId).catch(() => null);
    // Left queued at shutdown: the next start fails it with a sentence, or puts it back in line (reconcile).
    if (run?.status !== 'queued' || shuttingDown) return tell('done');
    const controller = new AbortController();
    let settle = () => {};
    running.set(runId, { controller, settled: new Promise((resolve) => (settle = resolve)) });
    try {
      await executeRun({ ...deps, changes }, run, controller.signal, () => shuttingDown, tell);
    } catch (error) {
      log.error('automation run crashed', { run_id: runId, error });
      await changes
        .finish(runId, 'failed', {}, 'The service failed while running this script.')
        .catch(() => {});
    } finally {
      tell('done');
      running.delete(runId);
      settle();
    }
  }

  return {
    reconcile: recovery.reconcile,
    sweepOrphans: recovery.sweepOrphans,

    async enqueue(reader, holder, body, record, batchId) {
      const accountId = reader.id;
      const profileId = await targetProfile(db, reader, holder, body);
      const row = await events.writeWithEvents(async (tx, emit) => {
        // Where its profile's session or earlier runs are; else it waits for room on any node.
        const executor = await executorOfProfile(tx, profileId);
        const inserted = await insertRun(tx, clock, {
          accountId,
          profileId,
          sessionId: body.session_id ?? null,
          name: body.name ?? null,
          script: body.script,
          nodeId: executor,
          batchId: batchId ?? null,
          holder,
        });
        await emit(accountId, 'run.queued', runEventData(toRun(inserted)));
        await record(toRun(inserted), tx);
        if (executor === null) await waitForRoom(tx, clock, inserted);
        else if (executor !== nodeId)
          await tx.query('select pg_notify($1, $2)', [RUNS_QUEUED_CHANNEL, executor]);
        return inserted;
      });
      if (row.node_id === nodeId) schedule(row);
      return toRun(row);
    },

    async enqueueBatch(accountId, holder, batch) {
      const rows = await events.writeWithEvents(async (tx, _emit, emitAll) => {
        const inserted = await insertQueuedRuns(tx, clock, {
          accountId,
          profileIds: batch.profileIds,
          script: batch.script,
          name: batch.name,
          batchId: batch.id,
          holder,
        });
        await emitAll(
          accountId,
          'run.queued',
          inserted.map((row) => runEventData(toRun(row))),
        );
        const elsewhere = new Set(
          inserted.map((row) => row.node_id).filter((node) => node && node !== nodeId),
        );
        for (const node of elsewhere) await tx.query('select pg_notify($1, $2)', [RUNS_QUEUED_CHANNEL, node]);
        return inserted;
      });
      for (const row of rows) if (row.node_id === nodeId) schedule(row);
      return rows.map(toRun);
    },

    async cancel(reader, runId) {
      const run = await runOf(db, reader, runId);
      if (run.status === 'queued') {
        return toRun(await changes.finish(runId, 'cancelled', {}, CANCELLED_QUEUED));
      }
      const active = running.get(runId);
      if (active) {
        active.controller.abort();
        await Promise.race([active.settled, new Promise((resolve) => setTimeout(resolve, CANCEL_SETTLE_MS))]);
      } else if (run.node_id !== null && run.node_id !== nodeId) {
        await deps.cluster?.peers.cancelElsewhere({ ...run, node_id: run.node_id });
      }
      return toRun((await findRun(db, reader, runId)) as RunRow);
    },

    async cancelQueuedOfBatch(batchId) {
      const rows = await events.writeWithEvents(async (tx, _emit, emitAll) => {
        const cancelled = await cancelQueuedRuns(tx, clock, batchId, CANCELLED_QUEUED);
        const [first] = cancelled;
        if (first)
          await emitAll(
            first.account_id,
            'run.finished',
            cancelled.map((row) => runEventData(toRun(row))),
          );
        return cancelled;
      });
      return rows.length;
    },

    async pickUp() {
      for (const run of await findQueuedRunsOfNode(db, nodeId)) schedule(run);
    },

    serveRun(wait) {
      return new Promise((resolve) =>
        schedule({ id: wait.run_id, account_id: wait.account_id, profile_id: wait.profile_id }, resolve),
      );
    },

    async failDeleted(runIds) {
      for (const runId of runIds) {
        await changes.finish(
          runId,
          'failed',
          {},
          'Its profile was deleted while this run waited for a browser.',
        );
      }
    },

    async drain() {
      shuttingDown = true;
      for (const { controller } of running.values()) controller.abort();
      await Promise.all([...running.values()].map((active) => active.settled));
    },
  };
}
