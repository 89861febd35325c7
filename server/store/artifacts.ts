import type { Clock } from '../core/clock';
import type { Queryable } from '../db/driver';
import { firstRow } from './first-row';
import { type Reader, scopeOfProfile } from './scope';

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

/**
 * The account's artifact, of a run on a profile within the reader's scope: its type, and its bytes when the row
 * holds them (rows written before files).
 */
export async function findArtifact(
  db: Queryable,
  reader: Reader,
  runId: string,
  name: string,
): Promise<{ content_type: string; bytes: Uint8Array | null } | null> {
  const params: unknown[] = [reader.id, runId, name];
  const runProfile = '(select r.profile_id from automation_runs r where r.id = a.run_id)';
  const where = [
    'a.account_id = $1 and a.run_id = $2 and a.name = $3',
    ...scopeOfProfile(reader, params, runProfile),
  ];
  return firstRow(
    db.query<{ content_type: string; bytes: Uint8Array | null }>(
      `select a.content_type, a.bytes from automation_artifacts a where ${where.join(' and ')}`,
      params,
    ),
  );
}
