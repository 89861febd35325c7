import type { WatchedRun } from '../../lib/storage';
import type { WatchList } from './watch-list';

/** Announces each run that ended or was dropped and is not announced yet, then marks it announced. */
export async function announceEnded(
  list: WatchList,
  announce: (entry: WatchedRun) => Promise<void>,
): Promise<void> {
  const pending = (await list.read()).filter((entry) => entry.phase !== 'watching' && !entry.notified);
  for (const entry of pending) {
    try {
      await announce(entry);
    } catch (error) {
      // A notification that cannot be shown must not stop the watching of the others.
      console.warn('Profile Pilot worker: could not announce a run', error);
    }
    await list.markNotified(entry.run.id);
  }
}
