import type { Logger } from './log';

export type Hook = () => Promise<void> | void;

/** Where parts of the service hook into start-up and shutdown. */
export interface Lifecycle {
  /** Runs after the database is migrated and before the service accepts requests, in registration order. */
  onStart(name: string, hook: Hook): void;
  /** Runs after the service stops accepting requests and before the database closes, last registered first. */
  onShutdown(name: string, hook: Hook): void;
  /** Aborted when shutdown begins: long-running requests (long polls) end early on it. */
  readonly shutdownSignal: AbortSignal;
}

/**
 * A piece of background work. Every one is listed in boot/jobs.ts, started there in the list's order after the
 * database is migrated and stopped in its reverse order at shutdown; building the service or an app starts none.
 */
export interface Job {
  name: string;
  /** Runs before the service takes requests; `signal` aborts when the job's turn to stop comes. */
  start?(signal: AbortSignal): Promise<void> | void;
  /** Repeated work, every `ms` after `start`, until the job stops. */
  every?: { ms: number; run(): void };
  /** Runs at the job's turn in shutdown, after its signal aborted and its repeats ended. */
  stop?(): Promise<void> | void;
}

export interface LifecycleRunner extends Lifecycle {
  runStart(): Promise<void>;
  runShutdown(): Promise<void>;
}

const SHUTDOWN_HOOK_TIMEOUT_MS = 15_000;

export function createLifecycle(log: Logger): LifecycleRunner {
  const startHooks: { name: string; hook: Hook }[] = [];
  const shutdownHooks: { name: string; hook: Hook }[] = [];
  const shutdown = new AbortController();
  return {
    onStart: (name, hook) => startHooks.push({ name, hook }),
    onShutdown: (name, hook) => shutdownHooks.push({ name, hook }),
    shutdownSignal: shutdown.signal,
    async runStart() {
      for (const { name, hook } of startHooks) {
        log.debug('start hook', { hook: name });
        await hook();
      }
    },
    async runShutdown() {
      shutdown.abort();
      for (const { name, hook } of shutdownHooks.toReversed()) {
        try {
          await withTimeout(Promise.resolve().then(hook), SHUTDOWN_HOOK_TIMEOUT_MS, `shutdown hook ${name}`);
        } catch (error) {
          log.error('shutdown hook failed', { hook: name, error });
        }
      }
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
