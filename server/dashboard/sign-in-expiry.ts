import type { Clock } from '../core/clock';
import type { Job } from '../core/lifecycle';
import type { Database } from '../db/driver';
import { deleteExpiredSignIns } from '../store/sign-ins';

/** Expired sign-ins are refused as they are read; their rows are deleted once an hour. */
export function expireSignInsHourly(db: Database, clock: Clock): Job {
  return {
    name: 'expired sign-ins',
    start: () => deleteExpiredSignIns(db, clock),
    every: { ms: 3600 * 1000, run: () => void deleteExpiredSignIns(db, clock).catch(() => {}) },
  };
}
