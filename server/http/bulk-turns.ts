import { bulkCost } from '../../lib/api/bulk-limits';
import type { BulkRequest } from '../../lib/api/inputs/bulk';
import type { UsageTally } from '../accounts/usage-tally';
import type { Clock } from '../core/clock';
import { DomainError } from '../core/domain-errors';
import { Lanes } from '../core/lanes';
import type { Database } from '../db/driver';
import { actOnProfiles, type BulkDeps, type BulkDone } from '../profiles/profile-bulk';
import type { AccountOfKey } from '../store/accounts';
import { hourlyCount } from './rate-limit';

/** Bulk requests an account may have waiting behind the one being done; one more is answered 429. */
const MOST_WAITING = 8;

const bulkLanes = new Lanes(
  MOST_WAITING,
  () =>
    new DomainError({
      status: 429,
      code: 'bulk_busy',
      detail: `This account already has ${MOST_WAITING} bulk requests waiting behind the one being done; send the next one when one has answered.`,
      retryAfterSeconds: 1,
    }),
);

/**
 * One bulk request of the account at a time in this process (the next ones wait for their turn, in order), so
 * that one account's batches of thousands cannot take turns on the database ahead of everyone else's requests;
 * each is then charged to its hourly limit for its size: the request itself was counted as one at the door, and
 * the rest of its cost is counted as far as the hour holds it.
 */
export async function actInTurn(
  deps: BulkDeps & { db: Database; clock: Clock; usageTally: UsageTally },
  account: AccountOfKey,
  request: BulkRequest,
): Promise<BulkDone> {
  const done = await bulkLanes.run(account.id, () => actOnProfiles(deps, account, request));
  const count = hourlyCount(deps.db, deps.usageTally);
  for (let extra = bulkCost(done.selected) - 1; extra > 0; extra--) {
    const verdict = await count(account, deps.clock.now().getTime());
    if (verdict === null || !verdict.allowed) break;
  }
  return done;
}
