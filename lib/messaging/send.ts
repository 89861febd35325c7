import { browser } from 'wxt/browser';
import type { ApiClient } from '../api/client';
import {
  failure,
  type Reply,
  type ServiceCall,
  type ServiceResult,
  type WorkerReplies,
  type WorkerRequest,
} from './protocol';

/**
 * Asks the worker and resolves with its reply; never throws. A worker that cannot be reached (or gives no
 * answer) is a `worker_unavailable` failure with a sentence to show.
 */
export async function sendToWorker<R extends WorkerRequest>(
  request: R,
): Promise<Reply<WorkerReplies[R['type']]>> {
  try {
    const reply: unknown = await browser.runtime.sendMessage(request);
    if (isReply(reply)) return reply as Reply<WorkerReplies[R['type']]>;
  } catch {
    // Falls through: no listener, or the worker failed to start.
  }
  return failure('worker_unavailable', browser.i18n.getMessage('workerUnavailable'));
}

function isReply(value: unknown): value is Reply<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}

/** Calls the service through the worker, typed as the client method of the same name. */
export function callService<N extends ServiceCall>(
  call: N,
  ...args: Parameters<ApiClient[N]>
): Promise<Reply<ServiceResult<N>>> {
  return sendToWorker({ type: 'service.call', call, args }) as Promise<Reply<ServiceResult<N>>>;
}
