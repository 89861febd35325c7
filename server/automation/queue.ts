import type { RunCreate } from '../../lib/api/inputs/automation';
import type { AutomationRun } from '../../lib/api/schemas/automation';
import { boundedText, MAX_TEXT_BYTES } from '../core/bounded-text';
import type { Clock } from '../core/clock';
import type { Limits } from '../core/config';
import { Conflict, isDomainError, NotFound } from '../core/domain-errors';
import type { Logger } from '../core/log';
import type { Database, Queryable } from '../db/driver';
import { type EventLog, runEventData } from '../events/event-log';
import { EgressRefused } from '../network/egress-lookup';
import type { SessionManager } from '../sessions/manager';
import type { ClusterSeat } from '../sessions/parts';
import { getProfile } from '../store/profiles';
import {
  executorOfProfile,
  findActiveRunsOfNode,
  findOrphanedRuns,
  findQueuedRunsOfNode,
  findRun,
  finishRun,
  insertArtifact,
  insertRun,
  markRunStarted,
  type RunRow,
  toRun,
  updateStep,
} from '../store/runs';
import { findSession, findSessionOfProfile, type SessionRow } from '../store/sessions';
import { writeArtifactFile } from './artifact-files';
import type { RunEvents } from './run-events';
import { type RunScriptOptions, type RunScriptResult, runScript } from './runner';
import { bytes } from './runner-messages';

export interface RunQueueDeps {
  limits: Pick<Limits, 'maxStepOutputBytes' | 'maxRunOutputBytes' | 'maxArtifactBytes'>;
  /** The data dir, whose `artifacts` folder holds the runs' screenshots. */
  dataDir: string;
  db: Database;
  clock: Clock;
  log: Logger;
  sessions: SessionManager;
  /** Wakes the run's long polls. */
  runEvents: RunEvents;
  /** Where every change of a run is reported (`run.*` events), with the change. */
  events: EventLog;
  run?: (options: RunScriptOptions) => Promise<RunScriptResult>;
  /** This process among others on one database; alone when not given. */
  cluster?: Pick<ClusterSeat, 'nodeId' | 'peers'>;
}

export interface RunQueue {
  /** Checks the target, stores the run as queued (with `record`, in the same transaction) and queues it. */
  enqueue(
    accountId: string,
    body: RunCreate,
    record: (run: AutomationRun, tx: Queryable) => Promise<unknown>,
  ): Promise<AutomationRun>;
  cancel(accountId: string, runId: string): Promise<AutomationRun>;
  /** On start-up: runs this node had queued or running when it stopped end failed. */
  reconcile(): Promise<void>;
  /** Takes up the runs other nodes queued for this one (they go to the node that runs the profile's session). */
  pickUp(): Promise<void>;
  /** Fails the runs of nodes that left the cluster without finishing them. */
  sweepOrphans(): Promise<void>;
  /** On shutdown: cancels what runs and waits for it to settle. */
  drain(): Promise<void>;
}

export function artifactPath(runId: string, name: string): string {
  return `/v1/automation/runs/${runId}/artifacts/${encodeURIComponent(name)}`;
}

/** NOTIFY channel on which a node is told (its id as payload) that a run was queued for it. */
export const RUNS_QUEUED_CHANNEL = 'pp_runs_queued';

/** How long a cancel waits for the run to wind down (its own session stopped too) before answering its state. */
const CANCEL_SETTLE_MS = 10_000;

/** Runs scripts one at a time per profile (a profile has at most one session), in the order they came. */
export function createRunQueue(deps: RunQueueDeps): RunQueue {
  const { db, clock, log, sessions, runEvents, events, limits, dataDir } = deps;
  // An error is output too: cut to a few KB, and never heavier than the output a step or a run may store.
  const stepErrorBytes = Math.min(MAX_TEXT_BYTES, limits.maxStepOutputBytes);
  const runErrorBytes = Math.min(MAX_TEXT_BYTES, limits.maxRunOutputBytes);
  const execute = deps.run ?? runScript;
  const nodeId = deps.cluster?.nodeId ?? 'nod_alone';
  const chains = new Map<string, Promise<void>>();
  /** Runs scheduled on this node, so that a run picked up twice (notified, then polled) runs once. */
  const scheduled = new Set<string>();
  const running = new Map<string, { controller: AbortController; settled: Promise<void> }>();
  let shuttingDown = false;

  /** Every change of a run is reported as an event with it, and wakes those waiting on it. */
  async function changed(
    type: 'run.started' | 'run.step' | 'run.finished',
    change: (tx: Queryable) => Promise<RunRow>,
    stepIndex?: number,
  ): Promise<RunRow> {
    const row = await events.transaction(async (tx, emit) => {
      const changedRow = await change(tx);
      await emit(changedRow.account_id, type, runEventData(toRun(changedRow), stepIndex));
      return changedRow;
    });
    runEvents.changed(row.id);
    return row;
  }

  function schedule(run: RunRow): void {
    if (scheduled.has(run.id)) return;
    scheduled.add(run.id);
    const previous = chains.get(run.profile_id) ?? Promise.resolve();
    const next = previous.then(() => perform(run.id, run.account_id));
    chains.set(run.profile_id, next);
    void next.finally(() => {
      scheduled.delete(run.id);
      if (chains.get(run.profile_id) === next) chains.delete(run.profile_id);
    });
  }

  async function perform(runId: string, accountId: string): Promise<void> {
    const run = await findRun(db, accountId, runId);
    // Left queued at shutdown: the next start fails it with a sentence (reconcile).
    if (run?.status !== 'queued' || shuttingDown) return;
    const controller = new AbortController();
    let settle = () => {};
    running.set(runId, { controller, settled: new Promise((resolve) => (settle = resolve)) });
    try {
      await performRun(run, controller.signal);
    } catch (error) {
      log.error('automation run crashed', { run_id: runId, error });
      await finish(runId, 'failed', {}, 'The service failed while running this script.').catch(() => {});
    } finally {
      running.delete(runId);
      settle();
    }
  }

  async function performRun(run: RunRow, signal: AbortSignal): Promise<void> {
    const target = await sessionFor(run);
    if ('error' in target) return void (await finish(run.id, 'failed', {}, target.error));
    await changed('run.started', (tx) =>
      markRunStarted(tx, clock, run.id, { sessionId: target.session.id, ownsSession: target.owned }),
    );
    let result: RunScriptResult;
    try {
      const cdpUrl = sessions.localCdpUrl(target.session);
      result =
        cdpUrl === null
          ? { status: 'failed', output: {}, error: 'The session stopped before this run could start.' }
          : await execute({
              cdpUrl,
              script: run.script,
              signal,
              egressRefusalOf: (host) => sessions.egressRefusalOf(target.session.id, host),
              limits: {
                stepOutputBytes: limits.maxStepOutputBytes,
                runOutputBytes: limits.maxRunOutputBytes,
              },
              onStepStart: async (index) => {
                const started = { status: 'running' as const, started_at: clock.now().toISOString() };
                await changed('run.step', (tx) => updateStep(tx, run.id, index, started), index);
              },
              onStepEnd: async (index, outcome) => {
                const finished =
                  outcome.status === 'skipped' ? {} : { finished_at: clock.now().toISOString() };
                const error =
                  outcome.error === undefined ? {} : { error: boundedText(outcome.error, stepErrorBytes) };
                const patch = { ...outcome, ...error, ...finished };
                await changed('run.step', (tx) => updateStep(tx, run.id, index, patch), index);
              },
              saveArtifact: async (name, png) => {
                if (png.length > limits.maxArtifactBytes)
                  throw new Error(
                    `it is ${bytes(png.length)}, over the limit of ${bytes(limits.maxArtifactBytes)} per artifact`,
                  );
                const address = { accountId: run.account_id, runId: run.id, name };
                await writeArtifactFile(dataDir, address, png);
                await insertArtifact(db, clock, { ...address, contentType: 'image/png', size: png.length });
                return artifactPath(run.id, name);
              },
            });
    } finally {
      // Before the run is reported finished, so that whoever sees it finished sees its session stopped too.
      if (target.owned) {
        const session = await findSession(db, run.account_id, target.session.id);
        if (session) await sessions.stop(session, shuttingDown ? 'service_shutdown' : 'user');
      }
    }
    if (shuttingDown && result.status === 'cancelled') {
      result = { ...result, status: 'failed', error: 'The service shut down while this run was running.' };
    }
    await finish(run.id, result.status, result.output, result.error);
  }

  /** The session a run drives: the one it names, the profile's running one, or one it starts for itself. */
  async function sessionFor(
    run: RunRow,
  ): Promise<{ session: SessionRow; owned: boolean } | { error: string }> {
    const live = run.session_id
      ? await findSession(db, run.account_id, run.session_id)
      : await findSessionOfProfile(db, run.account_id, run.profile_id);
    if (live?.status === 'running') return { session: live, owned: false };
    if (run.session_id) return { error: 'The session stopped before this run could start.' };
    try {
      return { session: await sessions.start(run.account_id, run.profile_id), owned: true };
    } catch (error) {
      const detail =
        isDomainError(error) || error instanceof EgressRefused
          ? error.message
          : 'its browser could not be started';
      return { error: `The run could not start a session: ${detail}` };
    }
  }

  async function finish(
    runId: string,
    status: RunScriptResult['status'],
    output: Record<string, unknown>,
    error: string | null,
  ): Promise<RunRow> {
    const text = error === null ? null : boundedText(error, runErrorBytes);
    return changed('run.finished', (tx) => finishRun(tx, clock, runId, { status, output, error: text }));
  }

  return {
    async enqueue(accountId, body, record) {
      const profileId = await targetProfile(accountId, body);
      const row = await events.transaction(async (tx, emit) => {
        const executor = (await executorOfProfile(tx, profileId)) ?? nodeId;
        const inserted = await insertRun(tx, clock, {
          accountId,
          profileId,
          sessionId: body.session_id ?? null,
          name: body.name ?? null,
          script: body.script,
          nodeId: executor,
        });
        await emit(accountId, 'run.queued', runEventData(toRun(inserted)));
        await record(toRun(inserted), tx);
        if (executor !== nodeId) await tx.query('select pg_notify($1, $2)', [RUNS_QUEUED_CHANNEL, executor]);
        return inserted;
      });
      if (row.node_id === nodeId) schedule(row);
      return toRun(row);
    },

    async cancel(accountId, runId) {
      const run = await findRun(db, accountId, runId);
      if (!run) throw new NotFound('run');
      if (run.status === 'queued') {
        return toRun(await finish(runId, 'cancelled', {}, 'The run was cancelled before it started.'));
      }
      const active = running.get(runId);
      if (active) {
        active.controller.abort();
        await Promise.race([active.settled, new Promise((resolve) => setTimeout(resolve, CANCEL_SETTLE_MS))]);
      } else if (run.node_id !== null && run.node_id !== nodeId) {
        await deps.cluster?.peers.cancelElsewhere({ ...run, node_id: run.node_id });
      }
      return toRun((await findRun(db, accountId, runId)) as RunRow);
    },

    async pickUp() {
      for (const run of await findQueuedRunsOfNode(db, nodeId)) schedule(run);
    },

    async sweepOrphans() {
      for (const run of await findOrphanedRuns(db)) {
        log.warn('run lost with its node', { run_id: run.id, node_id: run.node_id });
        await finish(
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
        await finish(run.id, 'failed', run.output, `The service restarted while this run was ${run.status}.`);
      }
      if (interrupted.length > 0)
        log.info('failed runs interrupted by a restart', { count: interrupted.length });
    },

    async drain() {
      shuttingDown = true;
      for (const { controller } of running.values()) controller.abort();
      await Promise.all([...running.values()].map((active) => active.settled));
    },
  };

  async function targetProfile(accountId: string, body: RunCreate): Promise<string> {
    if (body.session_id) {
      const session = await findSession(db, accountId, body.session_id);
      if (!session) throw new NotFound('session');
      if (session.status !== 'running') {
        throw new Conflict(
          'session_not_running',
          `This session is ${session.status}; start a new one, or run on the profile instead.`,
        );
      }
      return session.profile_id;
    }
    const profile = await getProfile(db, accountId, body.profile_id as string);
    if (!profile) throw new NotFound('profile');
    return profile.id;
  }
}
