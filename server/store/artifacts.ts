import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';

/** Records an artifact whose bytes were written to its file (artifact-files.ts). */
export async function insertArtifact(
  db: Queryable,
  clock: Clock,
  artifact: { runId: string; accountId: string; name: string; contentType: string; size: number },
): Promise<void> {
  await db.query(
    `insert into automation_artifacts (run_id, account_id, name, content_type, size, created_at)
     values ($1, $2, $3, $4, $5, $6)
     on conflict (run_id, name) do update set content_type = excluded.content_type, size = excluded.size`,
    [artifact.runId, artifact.accountId, artifact.name, artifact.contentType, artifact.size, clock.now()],
  );
}

/** The account's artifact: its type, and its bytes when the row holds them (rows written before files). */
export async function findArtifact(
  db: Queryable,
  accountId: string,
  runId: string,
  name: string,
): Promise<{ content_type: string; bytes: Uint8Array | null } | null> {
  const [row] = await db.query<{ content_type: string; bytes: Uint8Array | null }>(
    'select content_type, bytes from automation_artifacts where account_id = $1 and run_id = $2 and name = $3',
    [accountId, runId, name],
  );
  return row ?? null;
}
