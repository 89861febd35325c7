import { browser } from 'wxt/browser';
import { ApiError } from '../api/errors';
import { summarizeIssues } from '../api/issues';
import { type IntentType, type ParsedIntent, parseIntent } from './intents';
import { failure, type IntentReplies, type Reply, type WorkerError } from './protocol';

/** One handler per intent, each given the validated message; one with nothing to answer resolves empty. */
export type Handlers = {
  [K in IntentType]: (
    intent: Extract<ParsedIntent, { type: K }>,
  ) => IntentReplies[K] extends undefined ? Promise<void> : Promise<IntentReplies[K]>;
};

/** The part of `runtime.MessageSender` the receiver checks. */
export interface MessageSender {
  id?: string;
  url?: string;
}

/**
 * The worker's `runtime.onMessage` listener. It answers only the extension's own pages (not content scripts,
 * not web pages, not other extensions), validates the message, runs its handler and turns any error into a
 * sentence. Messages from anyone else get no answer at all.
 */
export function createReceiver(handlers: Handlers) {
  const ownPages = browser.runtime.getURL('/');
  return (message: unknown, sender: MessageSender): Promise<Reply<unknown>> | undefined => {
    if (sender.id !== browser.runtime.id || !sender.url?.startsWith(ownPages)) return undefined;
    const parsed = parseIntent(message);
    if (!parsed.success) {
      const detail = summarizeIssues(parsed.issues);
      return Promise.resolve(failure('invalid_message', browser.i18n.getMessage('invalidMessage', [detail])));
    }
    const handle = handlers[parsed.data.type] as (intent: ParsedIntent) => Promise<unknown>;
    return handle(parsed.data).then(
      (value) => ({ ok: true, value }),
      (error: unknown) => ({ ok: false, error: toWorkerError(error) }),
    );
  };
}

function toWorkerError(error: unknown): WorkerError {
  if (error instanceof ApiError) {
    const { code, userMessage: message, status, retryAfter, fieldErrors } = error;
    return { code, message, status, retryAfter, fieldErrors };
  }
  // A bug, not a service answer: keep the details for the developer, give the person a sentence.
  console.error('Profile Pilot worker: a message handler failed', error);
  return failure('internal', browser.i18n.getMessage('workerFailed')).error;
}
