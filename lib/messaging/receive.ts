import { browser } from 'wxt/browser';
import { ApiError } from '../api/errors';
import { summarizeIssues } from '../api/issues';
import {
  failure,
  type ParsedRequest,
  parseRequest,
  type Reply,
  type RequestType,
  type WorkerError,
  type WorkerReplies,
} from './protocol';

/** One handler per request type, each given the validated message. */
export type Handlers = {
  [K in RequestType]: (request: Extract<ParsedRequest, { type: K }>) => Promise<WorkerReplies[K]>;
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
    const parsed = parseRequest(message);
    if (!parsed.success) {
      const detail = summarizeIssues(parsed.issues);
      return Promise.resolve(failure('invalid_message', browser.i18n.getMessage('invalidMessage', [detail])));
    }
    const handle = handlers[parsed.data.type] as (request: ParsedRequest) => Promise<unknown>;
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
