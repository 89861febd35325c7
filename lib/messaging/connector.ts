import { browser } from 'wxt/browser';
import { EVENTS_PORT, type Intent, type IntentReplies, type Reply } from './protocol';
import { sendToWorker } from './send';

export interface Connector {
  send<I extends Intent>(intent: I): Promise<Reply<IntentReplies[I['type']]>>;
  /** Asks the worker to follow the service's events while the page is open; the function returned lets go. */
  followEvents(): () => void;
}

/**
 * How the popup and the options page reach the worker: they change shared state only by sending it named
 * intents, and read the outcome from extension storage. `send` resolves with the worker's reply and never
 * throws. Component tests stand a mock connector's `send` in for it.
 */
export const connector: Connector = {
  send: sendToWorker,
  followEvents() {
    const port = browser.runtime.connect({ name: EVENTS_PORT });
    return () => port.disconnect();
  },
};
