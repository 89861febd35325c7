import type { Clock } from '../core/clock';
import { NotFound } from '../core/domain-errors';
import type { Database } from '../db/driver';
import type { RoomQueue } from '../queue/room-queue';
import type { Holder } from '../store/leases';
import { ownProfileIds } from '../store/profile-bulk';
import { insertStartWaits } from '../store/room-waits';
import { everything } from '../store/scope';
import type { BulkOutcome } from './bulk-changes';

/**
 * Bulk start: every profile's start waits in line for room, in the selection's order; those this node has room
 * for start now (and are answered with their session), the others start as room comes (`waiting`).
 */
export async function startOrWait(
  deps: { db: Database; clock: Clock; queue: Pick<RoomQueue, 'dispatch' | 'startOf'> },
  accountId: string,
  ids: string[],
  headless: boolean | undefined,
  holder: Holder,
): Promise<BulkOutcome[]> {
  const { db, clock, queue } = deps;
  const owned = await ownProfileIds(db, everything(accountId), ids);
  const mine = ids.filter((id) => owned.has(id));
  const places = await db.transaction((tx) =>
    insertStartWaits(tx, clock, accountId, mine, headless ?? null, holder),
  );
  await queue.dispatch();
  const one = async (id: string): Promise<BulkOutcome> => {
    const place = places.get(id);
    if (place === undefined) return { id, error: new NotFound('profile') };
    const start = queue.startOf(place);
    if (!start) return { id, waiting: true };
    const outcome = await start;
    if (outcome === 'no_room') return { id, waiting: true };
    return 'sessionId' in outcome ? { id, sessionId: outcome.sessionId } : { id, error: outcome.error };
  };
  return Promise.all(ids.map(one));
}
