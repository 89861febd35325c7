import { bulkCost } from '../../lib/api/bulk-limits';
import type { BulkRequest } from '../../lib/api/inputs/bulk';
import type { UsageTally } from '../accounts/usage-tally';
import type { Clock } from '../core/clock';
import { DomainError } from '../core/domain-errors';
import type { Database } from '../db/driver';
import { actOnProfiles, type BulkDeps, type BulkDone } from '../profiles/profile-bulk';
import type { AccountOfKey } from '../store/accounts';
import { hourlyCount } from './rate-limit';

/** The accounts whose bulk request this process is doing: one at a time each. */
const busy = new Set<string>();

/**
 * One bulk request of the account, while no other of its runs here (the next is refused with 429, so that one
 * account's batches of thousands cannot take turns on the database ahead of everyone else's requests), then
 * charged to its hourly limit for its size: the request itself was counted as one at the door, and the rest of
 * its cost is counted as far as the hour holds it.
 */
export async function actInTurn(
  deps: BulkDeps & { db: Database; clock: Clock; usageTally: UsageTally },
  account: AccountOfKey,
  request: BulkRequest,
): Promise<BulkDone> {
  if (busy.has(account.id))
    throw new DomainError({
      status: 429,
      code: 'bulk_busy',
      detail: 'This account’s last bulk request is still being done; send the next one when it has answered.',
      retryAfterSeconds: 1,
    });
  busy.add(account.id);
  try {
    const done = await actOnProfiles(deps, account, request);
    const count = hourlyCount(deps.db, deps.usageTally);
    for (let extra = bulkCost(done.selected) - 1; extra > 0; extra--) {
      const verdict = await count(account, deps.clock.now().getTime());
      if (verdict === null || !verdict.allowed) break;
    }
    return done;
  } finally {
    busy.delete(account.id);
  }
}
