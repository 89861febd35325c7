/**
 * Tells long polls that a run changed. In-process: with several service processes on one PostgreSQL a waiter
 * only hears about runs executed by its own process (it still answers the current state when its wait ends).
 */
export interface RunEvents {
  changed(runId: string): void;
  /** Resolves on the next change of `runId`, after `ms`, or when `signal` aborts, whichever is first. */
  nextChange(runId: string, ms: number, signal: AbortSignal): Promise<void>;
}

export function createRunEvents(): RunEvents {
  const waiters = new Map<string, Set<() => void>>();
  return {
    changed(runId) {
      const waiting = waiters.get(runId);
      waiters.delete(runId);
      for (const wake of waiting ?? []) wake();
    },
    nextChange(runId, ms, signal) {
      return new Promise((resolve) => {
        const waiting = waiters.get(runId) ?? new Set();
        waiters.set(runId, waiting);
        const done = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', done);
          waiting.delete(done);
          if (waiting.size === 0 && waiters.get(runId) === waiting) waiters.delete(runId);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
        waiting.add(done);
      });
    },
  };
}
