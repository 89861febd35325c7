import type { Plan } from '../../lib/api/schemas/account';
import { PlanLimit, Unavailable } from '../core/domain-errors';

/** A machine at its browser cap frees a slot when any session stops; a minute is a fair first wait. */
const CAPACITY_RETRY_AFTER_S = 60;
/** Long enough for a balancer to see the node unready and send the next try elsewhere. */
const SHUTTING_DOWN_RETRY_AFTER_S = 5;

/** The browsers this process may still start: counted before the first await, so the cap holds under a burst. */
export interface Slots {
  /** Whether a browser may start here now (a node that is leaving the cluster starts none). */
  hasRoom(): boolean;
  /** How many more browsers may start here now. */
  free(): number;
  /** Takes a slot or refuses with `at_capacity`; answers its release, which is safe to call more than once. */
  take(): () => void;
}

/** `onFree` is told whenever a slot is released. */
export function createSlots(maxBrowsers: number, draining: () => boolean, onFree = () => {}): Slots {
  let taken = 0;
  const free = () => (draining() ? 0 : Math.max(0, maxBrowsers - taken));
  const hasRoom = () => free() > 0;
  return {
    hasRoom,
    free,
    take() {
      if (!hasRoom()) throw draining() ? shuttingDown() : atCapacity(maxBrowsers);
      taken += 1;
      let held = true;
      return () => {
        if (held) {
          taken -= 1;
          onFree();
        }
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

/** A node shutting down starts no browser; another node takes the start once the balancer sends it there. */
export function shuttingDown(): Unavailable {
  return new Unavailable(
    'at_capacity',
    'This machine of the service is shutting down and no other has room for a browser; try again in a few seconds.',
    { retryAfterSeconds: SHUTTING_DOWN_RETRY_AFTER_S },
  );
}

/** The start found no room (a browser on any node, or a session within the plan): it may wait for room. */
export function isNoRoom(error: unknown): boolean {
  return (
    (error instanceof Unavailable && error.code === 'at_capacity') ||
    (error instanceof PlanLimit && error.code === 'session_limit')
  );
}

export function sessionLimit(plan: Plan, cap: number): PlanLimit {
  return new PlanLimit(
    'session_limit',
    `Your ${plan} plan allows ${cap} session${cap === 1 ? '' : 's'} at once; stop one to start another.`,
  );
}
