import type { Clock } from '../core/clock';
import type { Limits } from '../core/config';
import type { Database } from '../db/driver';
import { insertArtifact } from '../store/runs';
import { writeArtifactFile } from './artifact-files';
import { bytes } from './runner-messages';

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
