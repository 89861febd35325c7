import type { Step } from '../../lib/api/inputs/automation';
import { bytes, quoted, seconds } from '../pages/sentences';

/** The action and its target, as error sentences name a step: "click '#go'", "wait_for 500 ms". */
export function describeStep(step: Step): string {
  switch (step.action) {
    case 'goto':
      return `goto ${quoted(step.url)}`;
    case 'click':
    case 'type':
    case 'extract':
      return `${step.action} ${quoted(step.selector)}`;
    case 'wait_for':
      return step.selector === undefined ? `wait_for ${step.ms} ms` : `wait_for ${quoted(step.selector)}`;
    case 'evaluate':
      return `evaluate ${quoted(step.expression)}`;
    case 'screenshot':
      return `screenshot ${quoted(step.name)}`;
    case 'ask_human':
      return `ask_human ${quoted(step.reason)}`;
  }
}

export function stepFailed(index: number, step: Step, reason: string): string {
  return `Step ${index + 1} (${describeStep(step)}) failed: ${reason}.`;
}

export function stepCancelled(index: number, step: Step): string {
  return `Step ${index + 1} (${describeStep(step)}) was cancelled.`;
}

export function cancelledBefore(index: number, step: Step): string {
  return `The run was cancelled before step ${index + 1} (${describeStep(step)}).`;
}

export function timeLimitReason(limitMs: number): string {
  return `the run exceeded its time limit of ${seconds(limitMs)}`;
}

export function unreachable(reason: string): string {
  return `The browser of this session cannot be reached over DevTools (${reason}).`;
}

export function timeLimitWhileConnecting(limitMs: number): string {
  return `The run exceeded its time limit of ${seconds(limitMs)} while connecting to the browser.`;
}

export function runOutputTooLarge(size: number, limit: number): string {
  return `the run's output would reach ${bytes(size)}, over the limit of ${bytes(limit)} per run`;
}
