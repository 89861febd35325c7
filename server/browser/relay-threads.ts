import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FromRelayWorker, ToRelayWorker } from './relay-worker';

interface RelayThread {
  worker: Worker;
  /** The relays opened or opening on it, by id. */
  ids: Set<number>;
}

type Listener = (message: FromRelayWorker) => void;

const threads: RelayThread[] = [];
const listeners = new Map<number, Listener>();
let lastId = 0;

/**
 * The worker thread that takes the next relay: one per core at most, started as needed, the least busy first.
 * A thread keeps the process alive while it has relays open, as a listening server would; a thread that dies
 * takes its relays' connections with it and is replaced by the next relay opened.
 */
function leastBusyThread(): RelayThread {
  const idle = threads.find((thread) => thread.ids.size === 0);
  if (idle || threads.length >= availableParallelism())
    return idle ?? threads.reduce((best, thread) => (thread.ids.size < best.ids.size ? thread : best));
  const thread: RelayThread = { worker: startWorker(), ids: new Set() };
  thread.worker.on('message', (message: FromRelayWorker) => listeners.get(message.id)?.(message));
  thread.worker.on('error', () => {});
  thread.worker.once('exit', () => {
    threads.splice(threads.indexOf(thread), 1);
    for (const id of thread.ids) {
      listeners.get(id)?.({ type: 'failed', id, reason: 'The relay’s thread stopped.' });
      listeners.get(id)?.({ type: 'closed', id });
    }
  });
  threads.push(thread);
  return thread;
}

/** The worker module, through tsx's loader when the service runs from TypeScript (a worker does not inherit it). */
function startWorker(): Worker {
  const entry = new URL(`./relay-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry);
  const load = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(load, { eval: true });
}

/** A relay on a worker thread, as the service's thread sees it. */
export interface RelayHandle {
  port: number;
  /** Resolves once the relay asks this process group (the session's browser) for its secret. */
  challenge(processGroup: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens a relay on a worker thread; rejects with the worker's sentence when the settings cannot work.
 * `onRefused` runs on this thread for each destination the policy refused, before the browser is answered.
 */
export function openRelayInThread(
  settings: Omit<Extract<ToRelayWorker, { type: 'open' }>, 'type' | 'id'>,
  onRefused: (host: string, detail: string) => void,
): Promise<RelayHandle> {
  const thread = leastBusyThread();
  const id = ++lastId;
  const post = (message: ToRelayWorker) => thread.worker.postMessage(message);
  const waiters = new Map<FromRelayWorker['type'], () => void>();
  const reply = (type: FromRelayWorker['type'], message: ToRelayWorker) =>
    new Promise<void>((settle) => {
      waiters.set(type, settle);
      post(message);
    });
  thread.ids.add(id);
  thread.worker.ref();
  const release = () => {
    listeners.delete(id);
    thread.ids.delete(id);
    if (thread.ids.size === 0) thread.worker.unref();
  };
  let closed: Promise<void> | null = null;
  const close = () => {
    closed ??= reply('closed', { type: 'close', id }).then(release);
    return closed;
  };
  const challenge = (processGroup: number) => reply('challenging', { type: 'challenge', id, processGroup });
  return new Promise((resolve, reject) => {
    listeners.set(id, (message) => {
      if (message.type === 'opened') resolve({ port: message.port, challenge, close });
      else if (message.type === 'failed') {
        release();
        reject(new Error(message.reason));
      } else if (message.type === 'refused') {
        onRefused(message.host, message.detail);
        post({ type: 'noted', id, refusal: message.refusal });
      } else {
        waiters.get(message.type)?.();
        waiters.delete(message.type);
      }
    });
    post({ type: 'open', id, ...settings });
  });
}
