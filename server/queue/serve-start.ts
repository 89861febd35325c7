import { isNoRoom } from '../sessions/capacity';
import type { SessionManager } from '../sessions/manager';
import type { WaitRow } from '../store/room-waits';
import type { StartServed } from './room-queue';

/** Starts the browser of a session start the queue claimed for this node. */
export function serveStartWith(
  sessions: Pick<SessionManager, 'startHere'>,
): (wait: WaitRow) => Promise<StartServed> {
  return async (wait) => {
    try {
      const holder = { id: wait.holder_id ?? wait.account_id, name: wait.holder_name ?? 'a bulk start' };
      const row = await sessions.startHere(
        wait.account_id,
        wait.profile_id,
        holder,
        wait.headless ?? undefined,
      );
      return { sessionId: row.id };
    } catch (error) {
      return isNoRoom(error) ? 'no_room' : { error };
    }
  };
}
