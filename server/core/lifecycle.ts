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
