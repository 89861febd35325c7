import type { Intent, IntentReplies, Reply } from './protocol';
import { sendToWorker } from './send';

export interface Connector {
  send<I extends Intent>(intent: I): Promise<Reply<IntentReplies[I['type']]>>;
}

/**
 * How the popup and the options page reach the worker: they change shared state only by sending it named
 * intents, and read the outcome from extension storage. `send` resolves with the worker's reply and never
 * throws. Component tests stand a mock connector's `send` in for it.
 */
export const connector: Connector = { send: sendToWorker };
