import type { Script, Step } from '../../lib/api/inputs/automation';
import { type DevtoolsEndpoint, type OpenTab, openTab } from '../pages/open-tab';
import { reasonOf } from '../pages/sentences';
import { ELEMENT_TIMEOUT_MS, runStep, type StepContext, type StepOutput } from '../pages/steps';
import { targetIdOf } from '../pages/tab-target';
import { interruptible, RunInterrupted } from './runner-interrupt';
import {
  cancelledBefore,
  runOutputTooLarge,
  stepCancelled,
  stepFailed,
  timeLimitReason,
  timeLimitWhileConnecting,
  unreachable,
} from './runner-messages';

export const DEFAULT_RUN_TIMEOUT_MS = 60_000;
const DEFAULT_OUTPUT_LIMITS = { stepOutputBytes: 2 ** 20, runOutputBytes: 4 * 2 ** 20 };

export interface StepOutcome {
  status: 'succeeded' | 'failed' | 'skipped';
  error?: string;
}

export interface RunScriptOptions {
  /** The DevTools of an already running browser (not ours to close). */
  devtools: DevtoolsEndpoint;
  /** Already validated. */
  script: Script;
  /** Cancels the run: the current step is abandoned (reported failed, "was cancelled"), the rest skipped. */
  signal?: AbortSignal;
  onStepStart?(index: number): void | Promise<void>;
  /** Called for every step, skipped ones included, in order. */
  onStepEnd?(index: number, outcome: StepOutcome): void | Promise<void>;
  /** Stores a screenshot and returns the value for output[name]. */
  saveArtifact(name: string, png: Uint8Array): Promise<string>;
  /** How long click, type, wait_for {selector} and extract wait for their element; default 10000. */
  elementTimeoutMs?: number;
  /** The egress policy's sentence if it recently refused the session's browser a request to `host`. */
  egressRefusalOf?(host: string): string | null;
  /** The profile's proxy, no password: a goto its failure stops fails as proxy_unreachable, naming it. */
  proxy?: string | null;
  /** Asks a person on the run's tab (ask_human steps). */
  askHuman?: StepContext['askHuman'];
  /** Told the DevTools target id of the tab the run works in, once it is open (the live view opens on it). */
  onTab?(targetId: string): void;
  /** The most one step's output, and the whole run's, may weigh as UTF-8 JSON; 1 MB and 4 MB when left out. */
  limits?: { stepOutputBytes: number; runOutputBytes: number };
}

export interface RunScriptResult {
  status: 'succeeded' | 'failed' | 'cancelled';
  /** extract, evaluate (named) and screenshot values, JSON-safe. */
  output: Record<string, unknown>;
  /** A sentence naming the step, e.g. "Step 3 (click '#go') failed: no element matches '#go' within 10 s." */
  error: string | null;
}

type Attempt = { output: StepOutput } | { failure: RunScriptResult['status']; error: string };

/**
 * Runs a script in a new tab of the browser at `devtools`, within `script.timeout_ms`. Never rejects because of
 * the browser or the script (those end the run with a sentence); rejects only when a callback throws.
 */
export async function runScript(options: RunScriptOptions): Promise<RunScriptResult> {
  const { script, signal } = options;
  const limits = options.limits ?? DEFAULT_OUTPUT_LIMITS;
  const limitMs = script.timeout_ms ?? DEFAULT_RUN_TIMEOUT_MS;
  const deadline = Date.now() + limitMs;
  const output = new Map<string, unknown>();
  const firstStep = script.steps[0] as Step;

  const end = async (
    status: RunScriptResult['status'],
    error: string | null,
    firstSkipped: number,
  ): Promise<RunScriptResult> => {
    for (let index = firstSkipped; index < script.steps.length; index++) {
      await options.onStepEnd?.(index, { status: 'skipped' });
    }
    // fromEntries defines own properties, so an output named "__proto__" stays an ordinary key.
    return { status, output: Object.fromEntries(output), error };
  };

  if (signal?.aborted) return end('cancelled', cancelledBefore(0, firstStep), 0);
  const opening = openTab(options.devtools);
  let run: OpenTab;
  try {
    run = await interruptible(() => opening, deadline, signal);
  } catch (error) {
    // A connection that arrives after the run gave up is handed straight back.
    opening.then(
      (late) => late.release(),
      () => {},
    );
    if (!(error instanceof RunInterrupted)) return end('failed', unreachable(reasonOf(error)), 0);
    return error.reason === 'cancelled'
      ? end('cancelled', cancelledBefore(0, firstStep), 0)
      : end('failed', timeLimitWhileConnecting(limitMs), 0);
  }

  const targetId = options.onTab ? await targetIdOf(run.page) : null;
  if (targetId) options.onTab?.(targetId);
  const stepContext = {
    page: run.page,
    runDeadline: deadline,
    elementTimeoutMs: options.elementTimeoutMs ?? ELEMENT_TIMEOUT_MS,
    maxOutputBytes: limits.stepOutputBytes,
    saveArtifact: options.saveArtifact,
    egressRefusalOf: options.egressRefusalOf ?? (() => null),
    proxy: options.proxy ?? null,
    askHuman: options.askHuman,
  };
  let outputBytes = 2; // the braces of the output object
  const attempt = async (index: number, step: Step): Promise<Attempt> => {
    try {
      return {
        output: await interruptible(
          (stop) => runStep(step, { ...stepContext, stop }),
          deadline,
          signal,
          run.gone,
        ),
      };
    } catch (error) {
      if (!(error instanceof RunInterrupted)) {
        return { failure: 'failed', error: stepFailed(index, step, reasonOf(error)) };
      }
      if (error.reason === 'cancelled') return { failure: 'cancelled', error: stepCancelled(index, step) };
      const reason = error.reason === 'time_limit' ? timeLimitReason(limitMs) : error.message;
      return { failure: 'failed', error: stepFailed(index, step, reason) };
    }
  };

  try {
    for (const [index, step] of script.steps.entries()) {
      if (signal?.aborted) return await end('cancelled', cancelledBefore(index, step), index);
      await options.onStepStart?.(index);
      const result = await attempt(index, step);
      if ('failure' in result) {
        await options.onStepEnd?.(index, { status: 'failed', error: result.error });
        return await end(result.failure, result.error, index + 1);
      }
      if (result.output) {
        const { name, value } = result.output;
        outputBytes += Buffer.byteLength(`${JSON.stringify(name)}:${JSON.stringify(value)},`);
        if (outputBytes > limits.runOutputBytes) {
          const error = stepFailed(index, step, runOutputTooLarge(outputBytes, limits.runOutputBytes));
          await options.onStepEnd?.(index, { status: 'failed', error });
          return await end('failed', error, index + 1);
        }
        output.set(name, value);
      }
      await options.onStepEnd?.(index, { status: 'succeeded' });
    }
    return await end('succeeded', null, script.steps.length);
  } finally {
    await run.release();
  }
}
