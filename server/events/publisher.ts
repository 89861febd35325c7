/**
 * Wakes whoever waits on a topic (an account's event streams, a run's long polls) once a change is committed.
 * The one seam between writers and listeners: it carries no data, listeners read what changed from the
 * database. In-process; several service processes relay it through PostgreSQL (cluster/relayed-publisher.ts).
 */
export interface Publisher {
  publish(topic: string): void;
  /** Calls `listener` on every publish of `topic` until the returned function is called. */
  subscribe(topic: string, listener: () => void): () => void;
  /** Follows `topic` from now on, for waits that must not miss a publish between two of them. */
  watch(topic: string): TopicWatch;
}

/** A topic followed since the watch began: a publish while the waiter was busy (reading) is kept for its next wait. */
export interface TopicWatch {
  /**
   * Resolves at once if `topic` was published since the watch began or the last wait ended, else on its next
   * publish, after `ms`, or when `signal` aborts, whichever is first.
   */
  changed(ms: number, signal: AbortSignal): Promise<void>;
  close(): void;
}

export const accountTopic = (accountId: string) => `account:${accountId}`;
export const runTopic = (runId: string) => `run:${runId}`;
/** A request for a person: published when it is answered or times out, for whoever waits on it. */
export const helpTopic = (requestId: string) => `help:${requestId}`;

export interface LocalPublisher extends Publisher {
  /** Wakes every listener of every topic (they re-read the database): after notifications may have been missed. */
  wakeAll(): void;
}

export function createPublisher(): LocalPublisher {
  const listeners = new Map<string, Set<() => void>>();

  function subscribe(topic: string, listener: () => void): () => void {
    const set = listeners.get(topic) ?? new Set();
    listeners.set(topic, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && listeners.get(topic) === set) listeners.delete(topic);
    };
  }

  return {
    publish(topic) {
      for (const listener of [...(listeners.get(topic) ?? [])]) listener();
    },
    wakeAll() {
      for (const set of [...listeners.values()]) for (const listener of [...set]) listener();
    },
    subscribe,
    watch(topic) {
      let published = false;
      let wake = () => {};
      const close = subscribe(topic, () => {
        published = true;
        wake();
      });
      const changed = (ms: number, signal: AbortSignal) =>
        new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            wake = () => {};
            published = false;
            resolve();
          };
          const timer = setTimeout(done, ms);
          signal.addEventListener('abort', done, { once: true });
          wake = done;
          if (published || signal.aborted) done();
        });
      return { changed, close };
    },
  };
}
