import { type Publisher, runTopic } from '../events/publisher';

/** Tells long polls that a run changed, through the service's one publisher. */
export interface RunEvents {
  changed(runId: string): void;
  /** Resolves on the next change of `runId`, after `ms`, or when `signal` aborts, whichever is first. */
  nextChange(runId: string, ms: number, signal: AbortSignal): Promise<void>;
}

export function createRunEvents(publisher: Publisher): RunEvents {
  return {
    changed: (runId) => publisher.publish(runTopic(runId)),
    nextChange: (runId, ms, signal) => publisher.next(runTopic(runId), ms, signal),
  };
}
