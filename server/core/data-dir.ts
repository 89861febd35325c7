import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, type Stats, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The file-creation mask of every process of the service: what it creates (the database's new files, the
 * profiles' browser data, Chromium's own files, sockets, logs) is closed to other users from the start.
 */
export const PRIVATE_UMASK = 0o077;

/** A data dir the service cannot make its own; the message is a sentence for the operator. */
export class DataDirAccessError extends Error {}

/**
 * Makes the data dir private to the service's user: created 0700 when missing; when it exists, it and all it
 * holds are closed (see `closeToOthers`). The data dir holds every account's database (proxy passwords
 * included) and browser data (cookies), so no other local user may read or change any of it.
 */
export function prepareDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  closeToOthers(dataDir);
}

/**
 * Takes the group and other permissions off `root` and everything under it (folders become 0700, files 0600,
 * the owner's own bits kept), without following symbolic links. Throws DataDirAccessError when something in
 * it belongs to another user: that user could change it whatever its mode.
 */
export function closeToOthers(root: string): void {
  const uid = process.getuid?.();
  const close = (target: string, stats: Stats) => {
    if (uid !== undefined && stats.uid !== uid) throw foreignOwner(root, target, stats.uid, uid);
    if ((stats.mode & 0o077) === 0 || stats.isSymbolicLink()) return;
    try {
      chmodSync(target, stats.mode & 0o700);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  };
  const rootStats = statSync(root);
  close(root, rootStats);
  if (!rootStats.isDirectory()) return;
  const folders = [root];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch (error) {
      if (isMissing(error)) continue;
      throw error;
    }
    for (const name of names) {
      const target = path.join(folder, name);
      let stats: Stats;
      try {
        stats = lstatSync(target);
      } catch (error) {
        // Removed meanwhile (a browser of a previous run may still be writing its profile).
        if (isMissing(error)) continue;
        throw error;
      }
      close(target, stats);
      if (stats.isDirectory()) folders.push(target);
    }
  }
}

function foreignOwner(root: string, target: string, owner: number, uid: number): DataDirAccessError {
  const what = target === root ? `The data dir ${root}` : `${target} in the data dir`;
  return new DataDirAccessError(
    `${what} belongs to another user (uid ${owner}), not to the service's user (uid ${uid}). ` +
      `The service's user must own the data dir and everything in it: give it to that user (chown -R ${uid} ${root}) or set DATA_DIR to another folder.`,
  );
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/** The browser user-data directory of one profile; deleting the profile deletes it. */
export function profileDataDir(dataDir: string, profileId: string): string {
  return path.join(dataDir, 'profiles', profileId);
}

/** The screenshots of one account's runs, a folder per run; deleting the account deletes it. */
export function accountArtifactsDir(dataDir: string, accountId: string): string {
  return path.join(dataDir, 'artifacts', accountId);
}

export function lockFilePath(dataDir: string): string {
  return path.join(dataDir, 'service.lock');
}

// A unix socket path must fit in sun_path (108 bytes on Linux, 104 on macOS).
const MAX_SOCKET_PATH = 100;

/**
 * The admin socket of the service running on `dataDir`. It lives in the data dir; when that path is too long
 * for a socket, in the temp folder under a name derived from the data dir (the socket is 0600 either way).
 */
export function adminSocketPath(dataDir: string): string {
  const inDataDir = path.join(dataDir, 'admin.sock');
  if (Buffer.byteLength(inDataDir) <= MAX_SOCKET_PATH) return inDataDir;
  const digest = createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `profile-pilot-${digest}.sock`);
}
