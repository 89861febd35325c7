import type { Clock } from '../core/clock';
import type { Job } from '../core/lifecycle';
import type { Database } from '../db/driver';
import { deleteExpiredSignInLinks } from '../store/sign-in-links';
import { deleteExpiredSignIns } from '../store/sign-ins';

/** Expired sign-ins and sign-in links are refused as they are read; their rows are deleted once an hour. */
export function expireSignInsHourly(db: Database, clock: Clock): Job {
  const expire = () => Promise.all([deleteExpiredSignIns(db, clock), deleteExpiredSignInLinks(db, clock)]);
  return {
    name: 'expired sign-ins',
    start: async () => void (await expire()),
    every: { ms: 3600 * 1000, run: () => void expire().catch(() => {}) },
  };
}
