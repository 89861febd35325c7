import { answerRelayChallenges } from '../../browser/relay-credentials';
import { withoutRelayTraces } from '../../browser/relay-traces';
import type { LaunchStep } from './step';

/**
 * The relay's secret: the service answers the relay's challenge for every browser context (relay-credentials.ts),
 * and no client is sent a message that names the secret or the relay (relay-traces.ts).
 */
export const relayCredentials: LaunchStep = {
  async attach({ pipe, relayCredentials: credentials }) {
    return {
      contexts: await answerRelayChallenges(pipe, credentials),
      outgoing: withoutRelayTraces(credentials),
    };
  },
};
