import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { lockFilePath, prepareDataDir } from './data-dir';

export type LockRole = 'service' | 'cli';

export interface LockHolder {
  pid: number;
  role: LockRole;
  started_at: string;
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(
      holder.role === 'service'
        ? `The data dir ${dataDir} is in use by a running service (pid ${holder.pid}). Stop it, or set DATA_DIR to another folder.`
        : `The data dir ${dataDir} is in use by a keys command (pid ${holder.pid}); try again in a moment.`,
    );
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * Takes the data dir for this process. PGlite takes no lock of its own, and two processes writing one
 * database directory corrupt it; the lock also guards the profiles' browser data and the admin socket.
 * A lock whose process is gone (killed) is taken over. Throws DataDirBusyError while a live process holds it.
 * The data dir is made private to this user first (prepareDataDir): DataDirAccessError when it cannot be.
 */
export function acquireDataDirLock(dataDir: string, role: LockRole): DataDirLock {
  prepareDataDir(dataDir);
  const lockPath = lockFilePath(dataDir);
  const me: LockHolder = { pid: process.pid, role, started_at: new Date().toISOString() };
  // Written aside and hard-linked into place: the link is atomic, so a reader never sees a half-written file.
  const draft = `${lockPath}.${process.pid}.${Date.now()}`;
  writeFileSync(draft, JSON.stringify(me), { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(draft, lockPath);
        return { release: () => releaseIfMine(lockPath) };
      } catch (error) {
        if (!isCode(error, 'EEXIST')) throw error;
      }
      const holder = readHolder(lockPath);
      if (holder && isAlive(holder.pid)) throw new DataDirBusyError(dataDir, holder);
      removeIfExists(lockPath);
    }
    throw new Error(`Could not take the lock ${lockPath}`);
  } finally {
    removeIfExists(draft);
  }
}

/** Who holds the data dir right now, or null when no live process does. */
export function currentLockHolder(dataDir: string): LockHolder | null {
  const holder = readHolder(lockFilePath(dataDir));
  return holder && isAlive(holder.pid) ? holder : null;
}

function readHolder(lockPath: string): LockHolder | null {
  try {
    const holder = JSON.parse(readFileSync(lockPath, 'utf8')) as LockHolder;
    return Number.isInteger(holder.pid) ? holder : null;
  } catch {
    return null;
  }
}

function releaseIfMine(lockPath: string): void {
  if (readHolder(lockPath)?.pid === process.pid) removeIfExists(lockPath);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isCode(error, 'EPERM');
  }
}

function removeIfExists(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (!isCode(error, 'ENOENT')) throw error;
  }
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
