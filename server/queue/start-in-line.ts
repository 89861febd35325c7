import type { Clock } from '../core/clock';
import { Unavailable } from '../core/domain-errors';
import type { Database } from '../db/driver';
import { accountTopic, type Publisher } from '../events/publisher';
import { isNoRoom } from '../sessions/capacity';
import type { SessionManager } from '../sessions/manager';
import type { Holder } from '../store/leases';
import { insertStartWaits, isStartWaiting } from '../store/room-waits';
import { everything } from '../store/scope';
import { findSession, findSessionOfProfile, type SessionRow } from '../store/sessions';
import type { RoomQueue } from './room-queue';

export interface StartInLineDeps {
  db: Database;
  clock: Clock;
  sessions: Pick<SessionManager, 'start'>;
  queue: Pick<RoomQueue, 'dispatch' | 'startOf'>;
  publisher: Publisher;
}

/** The session started, or the start still waits in line for room (and starts when it comes). */
export type StartedOrWaiting = { session: SessionRow } | { waiting: true };

/**
 * A single session start: at once if there is room; else it takes its place in the line for room, as a bulk
 * start's do, and is answered once this node or another started it within `waitMs`, or as still waiting.
 */
export async function startInLine(
  deps: StartInLineDeps,
  start: { accountId: string; profileId: string; holder: Holder; headless?: boolean },
  waitMs: number,
  gone: AbortSignal,
): Promise<StartedOrWaiting> {
  const { db, clock, queue, publisher } = deps;
  const { accountId, profileId, holder, headless } = start;
  try {
    return { session: await deps.sessions.start(accountId, profileId, holder, headless) };
  } catch (error) {
    if (!isNoRoom(error)) throw error;
  }
  const deadline = Date.now() + waitMs;
  const places = await db.transaction((tx) =>
    insertStartWaits(tx, clock, accountId, [profileId], headless ?? null, holder),
  );
  const seq = places.get(profileId) as number;
  // Its start, here or on another node, is an event of the account: watched before the first look.
  const watch = publisher.watch(accountTopic(accountId));
  try {
    await queue.dispatch();
    for (;;) {
      const served = queue.startOf(seq);
      const outcome = served ? await served : null;
      if (outcome && outcome !== 'no_room') {
        if ('error' in outcome) throw outcome.error;
        return { session: (await findSession(db, everything(accountId), outcome.sessionId)) as SessionRow };
      }
      if (!served && !(await isStartWaiting(db, seq))) return startedElsewhere(db, accountId, profileId);
      if (Date.now() >= deadline || gone.aborted) return { waiting: true };
      await watch.changed(deadline - Date.now(), gone);
    }
  } finally {
    watch.close();
  }
}

/** Another node served the start: its session, or why it could not start one. */
async function startedElsewhere(
  db: Database,
  accountId: string,
  profileId: string,
): Promise<StartedOrWaiting> {
  const session = await findSessionOfProfile(db, accountId, profileId);
  if (session && session.status !== 'failed' && session.status !== 'stopped') return { session };
  throw new Unavailable(
    'browser_unavailable',
    session?.error ?? 'The browser could not be started for this profile once there was room; try again.',
  );
}
