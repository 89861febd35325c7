import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The browser user-data directory of one profile; deleting the profile deletes it. */
export function profileDataDir(dataDir: string, profileId: string): string {
  return path.join(dataDir, 'profiles', profileId);
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
