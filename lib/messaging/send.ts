import { browser } from 'wxt/browser';
import { failure, type Intent, type IntentReplies, type Reply } from './protocol';

/**
 * Sends the worker an intent and resolves with its reply; never throws. A worker that cannot be reached (or
 * gives no answer) is a `worker_unavailable` failure with a sentence to show.
 */
export async function sendToWorker<I extends Intent>(intent: I): Promise<Reply<IntentReplies[I['type']]>> {
  try {
    const reply: unknown = await browser.runtime.sendMessage(intent);
    if (isReply(reply)) return reply as Reply<IntentReplies[I['type']]>;
  } catch {
    // Falls through: no listener, or the worker failed to start.
  }
  return failure('worker_unavailable', browser.i18n.getMessage('workerUnavailable'));
}

function isReply(value: unknown): value is Reply<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { ok?: unknown }).ok === 'boolean';
}
