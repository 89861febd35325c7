/**
 * A mock of the pages' connector: it answers the intents a test scripts, as the worker would, and records every
 * intent sent. Typed by the protocol, so that an answer or an expectation of the wrong shape does not compile.
 */
import { vi } from 'vitest';
import type { Connector } from '../../../lib/messaging/connector';
import { connector } from '../../../lib/messaging/connector';
import type { Intent, IntentReplies, IntentType, Reply } from '../../../lib/messaging/protocol';

export type IntentOf<K extends IntentType> = Extract<Intent, { type: K }>;

/** How the mock worker answers one intent; undefined leaves the page waiting (a request under way). */
export type Answers = {
  [K in IntentType]?: (
    intent: IntentOf<K>,
  ) => Reply<IntentReplies[K]> | Promise<Reply<IntentReplies[K]>> | undefined;
};

/** Stands the mock in for the connector until the test ends (vitest restores mocks after each test). */
export function mockConnector(answers: Answers = {}) {
  const answer = <K extends IntentType>(intent: IntentOf<K>) =>
    (answers[intent.type] as Answers[K] | undefined)?.(intent);
  const send = vi.spyOn(connector, 'send').mockImplementation(((intent: Intent) => {
    const reply = answer(intent);
    return reply === undefined ? new Promise<never>(() => {}) : Promise.resolve(reply);
  }) as Connector['send']);
  const follow = vi.spyOn(connector, 'followEvents').mockImplementation(() => () => {});
  const sent = (): Intent[] => send.mock.calls.map(([intent]) => intent);
  return {
    /** How many times the page asked the worker to follow the service's events. */
    followed: () => follow.mock.calls.length,
    /** Every intent sent, in order. */
    sent,
    /** The intents of one type sent, in order. */
    sentOf: <K extends IntentType>(type: K) =>
      sent().filter((intent): intent is IntentOf<K> => intent.type === type),
  };
}

export type MockConnector = ReturnType<typeof mockConnector>;
