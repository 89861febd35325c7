import type { Clock } from '../core/clock';
import type { Limits } from '../core/config';
import type { Database } from '../db/driver';
import { bytes } from '../pages/sentences';
import { findArtifact, insertArtifact } from '../store/artifacts';
import type { Reader } from '../store/scope';
import { readArtifactFile, writeArtifactFile } from './artifact-files';

export function artifactPath(runId: string, name: string): string {
  return `/v1/automation/runs/${runId}/artifacts/${encodeURIComponent(name)}`;
}

export interface ArtifactStoreDeps {
  db: Database;
  clock: Clock;
  limits: Pick<Limits, 'maxArtifactBytes'>;
  /** The data dir, whose `artifacts` folder holds the runs' screenshots. */
  dataDir: string;
}

/** Keeps a run's screenshot within the limit per artifact: its bytes on disk, its row in the database. */
export async function saveArtifact(
  deps: ArtifactStoreDeps,
  run: { accountId: string; runId: string },
  name: string,
  png: Uint8Array,
): Promise<string> {
  const { maxArtifactBytes } = deps.limits;
  if (png.length > maxArtifactBytes)
    throw new Error(`it is ${bytes(png.length)}, over the limit of ${bytes(maxArtifactBytes)} per artifact`);
  const address = { ...run, name };
  await writeArtifactFile(deps.dataDir, address, png);
  await insertArtifact(deps.db, deps.clock, { ...address, contentType: 'image/png', size: png.length });
  return artifactPath(run.runId, name);
}

/** A run's artifact of the account: its type and bytes (kept in the database, or on this node's disk). */
export async function readArtifact(
  { db, dataDir }: { db: Database; dataDir: string },
  { reader, runId }: { reader: Reader; runId: string },
  name: string,
): Promise<{ contentType: string; bytes: Uint8Array } | null> {
  const artifact = await findArtifact(db, reader, runId, name);
  if (!artifact) return null;
  const bytes = artifact.bytes ?? (await readArtifactFile(dataDir, { accountId: reader.id, runId, name }));
  return { contentType: artifact.content_type, bytes };
}
