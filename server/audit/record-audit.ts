import type { Clock } from '../core/clock';
import type { Job } from '../core/lifecycle';
import type { Database, Queryable } from '../db/driver';
import type { Emit, EventLog } from '../events/event-log';
import { type AuditEntry, insertAuditRecord, pruneAuditRecords } from '../store/audit';

export type { AuditEntry };

/** How long the audit log keeps a record. */
export const AUDIT_RETENTION_DAYS = 90;
const PRUNE_EVERY_MS = 3_600_000;

/**
 * Records an act on a profile or the workspace, by whom (`actor`: the request's account, whose member and key
 * acted), in the transaction `tx` of the act itself, and reports it as `audit.recorded`.
 */
export async function recordAudit(tx: Queryable, emit: Emit, clock: Clock, entry: AuditEntry): Promise<void> {
  await emit(entry.accountId, 'audit.recorded', await insertAuditRecord(tx, clock, entry));
}

/** Records an act that is already done, in a transaction of its own. */
export function recordAuditAfter(events: EventLog, clock: Clock, entry: AuditEntry): Promise<void> {
  return events.writeWithEvents((tx, emit) => recordAudit(tx, emit, clock, entry));
}

/** Every hour, records older than AUDIT_RETENTION_DAYS go. */
export function pruneOldAuditRecords(db: Database, clock: Clock): Job {
  const prune = () =>
    pruneAuditRecords(db, new Date(clock.now().getTime() - AUDIT_RETENTION_DAYS * 86_400_000));
  return {
    name: 'audit log',
    start: prune,
    every: { ms: PRUNE_EVERY_MS, run: () => void prune().catch(() => {}) },
  };
}
