import type { Plan } from '../../lib/api/schemas/account';
import { PlanLimit, Unavailable } from '../core/domain-errors';

/** A machine at its browser cap frees a slot when any session stops; a minute is a fair first wait. */
const CAPACITY_RETRY_AFTER_S = 60;

/** The browsers this process may still start: counted before the first await, so the cap holds under a burst. */
export interface Slots {
  /** Whether a browser may start here now (a node that is leaving the cluster starts none). */
  hasRoom(): boolean;
  /** Takes a slot or refuses with `at_capacity`; answers its release, which is safe to call more than once. */
  take(): () => void;
}

export function createSlots(maxBrowsers: number, draining: () => boolean): Slots {
  let taken = 0;
  const hasRoom = () => taken < maxBrowsers && !draining();
  return {
    hasRoom,
    take() {
      if (!hasRoom()) throw atCapacity(maxBrowsers);
      taken += 1;
      let held = true;
      return () => {
        if (held) taken -= 1;
        held = false;
      };
    },
  };
}

export function atCapacity(maxHere: number): Unavailable {
  return new Unavailable(
    'at_capacity',
    `The service is running as many browsers as its machines can hold (${maxHere} on this one, and no other has room); try again in a minute.`,
    { retryAfterSeconds: CAPACITY_RETRY_AFTER_S },
  );
}

export function sessionLimit(plan: Plan, cap: number): PlanLimit {
  return new PlanLimit(
    'session_limit',
    `Your ${plan} plan allows ${cap} session${cap === 1 ? '' : 's'} at once; stop one to start another.`,
  );
}
