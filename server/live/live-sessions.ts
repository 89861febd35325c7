import { HOURLY_LIMITS } from '../accounts/plans';
import type { Clock } from '../core/clock';
import { formatWait } from '../core/wait';
import type { Queryable } from '../db/driver';
import { findPlan } from '../store/accounts';
import { countRequest } from '../store/request-counts';

/** Whether the session is running, on any node: a live view address of any other one opens nothing. */
export async function isSessionRunning(db: Queryable, sessionId: string): Promise<boolean> {
  const [row] = await db.query<{ status: string }>('select status from sessions where id = $1', [sessionId]);
  return row?.status === 'running';
}

/**
 * Counts a live view's opening as one request of its account's hourly limit (the address carries no key, so
 * the account is the session's): null when counted, else the sentence that refuses it.
 */
export async function countViewOpening(
  db: Queryable,
  clock: Clock,
  sessionId: string,
): Promise<string | null> {
  const [row] = await db.query<{ account_id: string }>('select account_id from sessions where id = $1', [
    sessionId,
  ]);
  const plan = row ? await findPlan(db, row.account_id) : null;
  if (!row || !plan) return 'This session no longer exists.';
  const limit = HOURLY_LIMITS[plan];
  if (limit === null) return null;
  const nowMs = clock.now().getTime();
  const counted = await countRequest(db, row.account_id, nowMs, limit);
  if (counted.allowed) return null;
  const wait = Math.max(1, Math.ceil((counted.oldestLeavesAtMs - nowMs) / 1000));
  return `The ${plan} plan allows ${limit} requests an hour; the live view can open again in ${formatWait(wait)}.`;
}
