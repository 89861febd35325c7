import { applyIdentity } from '../../identity/apply';
import { keepIdentity } from '../../identity/client-commands';
import { identityArguments } from '../../identity/launch-arguments';
import type { LaunchStep } from './step';

/**
 * The profile's identity: its switches, put in force in every target before the target's scripts run, and kept
 * when a client's command would undo it. A launch without one is left as it is.
 */
export const identity: LaunchStep = {
  switches: ({ identity: presented, headless }) => (presented ? identityArguments(presented, headless) : []),
  async attach({ pipe, launch: { identity: presented } }) {
    if (!presented) return {};
    await applyIdentity(pipe, presented);
    return { command: (message) => ({ allowed: true, message: keepIdentity(message, presented) }) };
  },
};
