import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { accountArtifactsDir } from '../core/data-dir';

export interface ArtifactAddress {
  accountId: string;
  runId: string;
  /** An output name (letters, digits, dots, dashes, underscores): never a path of its own. */
  name: string;
}

/** Where an artifact's bytes live: `<DATA_DIR>/artifacts/<account>/<run>/<name>.bin`. */
export function artifactFile(dataDir: string, { accountId, runId, name }: ArtifactAddress): string {
  return path.join(accountArtifactsDir(dataDir, accountId), runId, `${name}.bin`);
}

/** Writes the bytes whole or not at all (a temporary file renamed over the old one) and syncs them to disk. */
export async function writeArtifactFile(
  dataDir: string,
  address: ArtifactAddress,
  bytes: Uint8Array,
): Promise<void> {
  const file = artifactFile(dataDir, address);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, bytes, { mode: 0o600, flush: true });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export function readArtifactFile(dataDir: string, address: ArtifactAddress): Promise<Buffer> {
  return readFile(artifactFile(dataDir, address));
}
