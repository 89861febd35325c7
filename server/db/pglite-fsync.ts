import { closeSync, fsync, fsyncSync, openSync, readlinkSync } from 'node:fs';
import { promisify } from 'node:util';

const fsyncOnPool = promisify(fsync);

/**
 * PGlite runs PostgreSQL on the service's own thread, and PostgreSQL waits for each fsync: a commit's WAL sync
 * (tens of ms on a busy disk, up to a second seen) stopped every request of every account while it lasted.
 * Here a WAL file's fsync only starts on libuv's thread pool, on a descriptor of its own (PostgreSQL may close or
 * recycle its one meanwhile), and PostgreSQL carries on; each call into the database awaits the WAL syncs started
 * since it was made before it answers, so a commit is still on disk before anyone is told of it. Any other file
 * (a checkpoint's) is synced at once, as PostgreSQL expects, after the WAL still being synced: a data file never
 * reaches disk ahead of its WAL.
 */
export interface DeferredFsync {
  /** Emscripten's NODEFS fsync, given the host descriptor of the file PostgreSQL syncs. */
  fsync(fd: number): void;
  /** A mark to pass to `syncedSince`: the WAL syncs started so far. */
  mark(): number;
  /** Resolves once every WAL sync started after `mark` is done; rejects if one failed. */
  syncedSince(mark: number): Promise<void>;
}

export function deferredFsync(syncWal: (fd: number) => Promise<void> = fsyncOnPool): DeferredFsync {
  const inFlight = new Map<number, { done: Promise<void>; own: number }>();
  let started = 0;
  let failure: Error | null = null;

  const start = (fd: number) => {
    const own = openSync(`/proc/self/fd/${fd}`, 'r');
    const number = ++started;
    const done = syncWal(own)
      .catch((error: Error) => {
        failure ??= error;
        throw error;
      })
      .finally(() => {
        inFlight.delete(number);
        closeSync(own);
      });
    done.catch(() => {});
    inFlight.set(number, { done, own });
  };

  return {
    fsync(fd) {
      if (failure) throw failure;
      if (readlinkSync(`/proc/self/fd/${fd}`).includes('/pg_wal/')) return start(fd);
      for (const { own } of inFlight.values()) fsyncSync(own);
      fsyncSync(fd);
    },
    mark: () => started,
    async syncedSince(mark) {
      await Promise.all([...inFlight].filter(([number]) => number > mark).map(([, { done }]) => done));
      if (failure) throw failure;
    },
  };
}
