import type { Job } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import { addRequestCounts, type TalliedRequests } from '../store/request-counts';

/** How often the requests counted in memory are written: the dashboard's usage is this late at most. */
export const TALLY_FLUSH_MS = 5_000;

/**
 * The requests of plans without a limit (Enterprise, the local account of `npm start`): nothing refuses them, so
 * they cost no statement per request; they are counted here and written every TALLY_FLUSH_MS, so that the
 * dashboard's usage shows them per member and key as it shows the others.
 */
export interface UsageTally {
  count(accountId: string, keyId: string | null, nowMs: number): void;
  /** Writes what was counted since the last time. */
  flush(nowMs: number): Promise<void>;
}

export function createUsageTally(db: Database): UsageTally {
  let counted = new Map<string, TalliedRequests>();
  return {
    count(accountId, keyId, nowMs) {
      const minute = Math.floor(nowMs / 60_000);
      const name = `${accountId} ${keyId} ${minute}`;
      const row = counted.get(name);
      if (row) row.count += 1;
      else counted.set(name, { accountId, keyId, minute, count: 1 });
    },
    async flush(nowMs) {
      const rows = [...counted.values()];
      counted = new Map();
      await addRequestCounts(db, rows, nowMs);
    },
  };
}

/** Writes the tally every TALLY_FLUSH_MS, and once more at shutdown. */
export function flushUsageTally(tally: UsageTally, now: () => number, log: Logger): Job {
  const flush = () =>
    tally.flush(now()).catch((error: unknown) => log.warn('could not write the requests counted', { error }));
  return { name: 'usage tally', every: { ms: TALLY_FLUSH_MS, run: () => void flush() }, stop: flush };
}
