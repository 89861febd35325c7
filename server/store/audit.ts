import type { AuditRecord } from '../../lib/api/schemas/leases';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { type Page, toPage } from './pagination';

export interface AuditEntry {
  accountId: string;
  action: string;
  actor: { member: { id: string; name: string }; key_id?: string | null };
  profileId?: string | null;
  detail?: Record<string, unknown>;
}

interface AuditRow {
  seq: number;
  id: string;
  action: string;
  actor_id: string;
  actor_name: string;
  key_id: string | null;
  profile_id: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

const COLUMNS = 'seq, id, action, actor_id, actor_name, key_id, profile_id, detail, created_at';

export function toAuditRecord(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    action: row.action,
    actor: { id: row.actor_id, name: row.actor_name, key_id: row.key_id },
    profile_id: row.profile_id,
    detail: row.detail,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export async function insertAuditRecord(
  tx: Queryable,
  clock: Clock,
  entry: AuditEntry,
): Promise<AuditRecord> {
  const [row] = await tx.query<AuditRow>(
    `insert into audit_records (id, account_id, action, actor_id, actor_name, key_id, profile_id, detail, created_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9) returning ${COLUMNS}`,
    [
      newId('aud'),
      entry.accountId,
      entry.action,
      entry.actor.member.id,
      entry.actor.member.name,
      entry.actor.key_id ?? null,
      entry.profileId ?? null,
      JSON.stringify(entry.detail ?? {}),
      clock.now(),
    ],
  );
  if (!row) throw new Error('the audit record was not stored');
  return toAuditRecord(row);
}

/** The account's records, newest first: of one profile, by one member or key (`member`), from `since` on. */
export async function listAuditRecords(
  db: Queryable,
  accountId: string,
  filter: { profileId?: string; member?: string; since?: Date; after: number | null; limit: number },
): Promise<Page<AuditRecord>> {
  const rows = await db.query<AuditRow>(
    `select ${COLUMNS} from audit_records
      where account_id = $1 and ($2::bigint is null or seq < $2) and ($3::text is null or profile_id = $3)
        and ($4::text is null or actor_id = $4 or key_id = $4) and ($5::timestamptz is null or created_at >= $5)
      order by seq desc limit $6`,
    [
      accountId,
      filter.after,
      filter.profileId ?? null,
      filter.member ?? null,
      filter.since ?? null,
      filter.limit + 1,
    ],
  );
  return toPage(rows, filter.limit, toAuditRecord);
}

export async function pruneAuditRecords(db: Queryable, before: Date): Promise<void> {
  await db.query('delete from audit_records where created_at < $1', [before]);
}
