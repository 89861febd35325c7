import type { Clock } from '../core/clock';
import type { Limits } from '../core/config';
import type { Database } from '../db/driver';
import type { Handoff } from '../handoff/handoff';
import type { Served } from '../queue/room-queue';
import type { SessionManager } from '../sessions/manager';
import { getProfile } from '../store/profiles';
import { type RunRow, updateStep } from '../store/runs';
import { everything } from '../store/scope';
import { findSession, LIVE_SESSION_STATUSES, type StopReason } from '../store/sessions';
import { saveArtifact } from './artifacts';
import { isPassingFailure, retryAt } from './passing-failure';
import type { RunChanges } from './run-changes';
import { sessionFor } from './run-target';
import { type RunScriptOptions, type RunScriptResult, runScript } from './runner';

export interface ExecuteDeps {
  db: Database;
  clock: Clock;
  limits: Pick<Limits, 'maxStepOutputBytes' | 'maxRunOutputBytes' | 'maxArtifactBytes'>;
  dataDir: string;
  sessions: SessionManager;
  changes: RunChanges;
  /** Where a run's ask_human step asks a person; without it, such a step fails. */
  handoff?: Handoff;
  run?: (options: RunScriptOptions) => Promise<RunScriptResult>;
}

/**
 * Executes one queued run to its end: finds or starts its session, runs the script reporting each step, stops
 * the session it started, and records the outcome. `shuttingDown` turns a cancel into a failure that says why.
 * Without room for a browser the run waits for it again; after a passing failure it is queued again, at most
 * twice, after a back-off. `served` is told once whether it got its browser.
 */
export async function executeRun(
  deps: ExecuteDeps,
  run: RunRow,
  signal: AbortSignal,
  shuttingDown: () => boolean,
  served: (outcome: Served) => void = () => {},
): Promise<void> {
  const { db, clock, limits, sessions, changes, handoff } = deps;
  const execute = deps.run ?? runScript;
  const settle = async (result: RunScriptResult, passing: boolean) => {
    const at = passing && !shuttingDown() ? retryAt(run.retries, clock.now()) : null;
    if (result.status === 'failed' && at) return changes.waitAgain(run, { retry: true, notBefore: at });
    await changes.finish(run.id, result.status, result.output, result.error);
  };
  const target = await sessionFor(db, sessions, run);
  if ('noRoom' in target) {
    await changes.waitAgain(run);
    return served('no_room');
  }
  if ('error' in target) {
    served('done');
    await changes.finish(run.id, 'failed', {}, target.error);
    return;
  }
  const started = await changes.start(run.id, { sessionId: target.session.id, ownsSession: target.owned });
  served('started');
  if (!started) {
    // Cancelled while its browser started.
    if (target.owned) await sessions.stop(target.session, 'run_finished');
    return;
  }
  let result: RunScriptResult;
  let sessionEnd: StopReason | null = null;
  try {
    // In this process when it runs the session; through the node that does when the run started it there.
    const devtools = sessions.devtoolsOf(target.session.id) ?? sessions.localCdpUrl(target.session);
    result =
      devtools === null
        ? { status: 'failed', output: {}, error: 'The session stopped before this run could start.' }
        : await execute({
            devtools,
            script: run.script,
            signal,
            egressRefusalOf: (host) => sessions.egressRefusalOf(target.session.id, host),
            proxy: (await getProfile(db, everything(run.account_id), run.profile_id))?.proxy ?? null,
            onTab: (targetId) => sessions.markActiveTab(target.session.id, targetId),
            limits: {
              stepOutputBytes: limits.maxStepOutputBytes,
              runOutputBytes: limits.maxRunOutputBytes,
            },
            onStepStart: async (index) => {
              const started = { status: 'running' as const, started_at: clock.now().toISOString() };
              await changes.changed('run.step', (tx) => updateStep(tx, run.id, index, started), index);
            },
            onStepEnd: async (index, outcome) => {
              const finished = outcome.status === 'skipped' ? {} : { finished_at: clock.now().toISOString() };
              const error = outcome.error === undefined ? {} : { error: changes.stepError(outcome.error) };
              const patch = { ...outcome, ...error, ...finished };
              await changes.changed('run.step', (tx) => updateStep(tx, run.id, index, patch), index);
            },
            askHuman:
              handoff &&
              ((fields, tabId, deadline, abandoned) => {
                const { id: sessionId, profile_id: profileId } = target.session;
                const asker = { accountId: run.account_id, sessionId, profileId, tabId, runId: run.id };
                return handoff.ask(asker, fields, { deadline, abandoned });
              }),
            saveArtifact: (name, png) =>
              saveArtifact(deps, { accountId: run.account_id, runId: run.id }, name, png),
          });
  } finally {
    await sessions.untilLossRecorded(target.session.id);
    const session = await findSession(db, everything(run.account_id), target.session.id);
    const live = session && (LIVE_SESSION_STATUSES as readonly string[]).includes(session.status);
    if (session && !live) sessionEnd = session.stop_reason;
    // Before the run is reported finished, so that whoever sees it finished sees its session stopped too.
    if (session && target.owned) {
      await sessions.stop(session, shuttingDown() ? 'service_shutdown' : 'run_finished');
    }
  }
  if (shuttingDown() && result.status === 'cancelled') {
    result = { ...result, status: 'failed', error: 'The service shut down while this run was running.' };
  }
  await settle(result, isPassingFailure({ error: result.error, sessionEnd }));
}
