import { formatWait } from '../core/wait';
import type { AppDeps } from '../http/deps';
import { problemResponse } from '../http/problem';
import { hourlyRefusal, knownHourlyRefusal } from '../http/rate-limit';
import { SlidingWindowLimiter } from '../http/sliding-window';
import type { AccountOfKey } from '../store/accounts';

/** How many requests to /v1/mcp an account may send a minute on one process, whatever messages they hold. */
export const MCP_REQUESTS_PER_MINUTE = 300;
/** How many JSON-RPC messages one request may hold. */
export const MAX_BATCH_MESSAGES = 10;

/**
 * What every request to /v1/mcp passes before its body is read: an account its hourly limit already refused is
 * answered 429 from memory, and every account has a budget of requests a minute, so that messages the hourly
 * limit does not count (tools/list, ping, invalid calls) still cannot make the service work without end.
 */
export function mcpDoor(deps: Pick<AppDeps, 'db' | 'clock'>): (account: AccountOfKey) => Response | null {
  const requests = new SlidingWindowLimiter(60_000);
  return (account) => {
    const nowMs = deps.clock.now().getTime();
    const refused = knownHourlyRefusal(deps.db, account, nowMs);
    if (refused) return hourlyRefusal(account, refused);
    const verdict = requests.hit(account.id, MCP_REQUESTS_PER_MINUTE, nowMs);
    if (verdict.allowed) return null;
    return problemResponse({
      status: 429,
      code: 'rate_limited',
      detail: `An account may send ${MCP_REQUESTS_PER_MINUTE} requests a minute to the MCP endpoint; the next one is possible in ${formatWait(verdict.resetSeconds)}.`,
      headers: { 'Retry-After': String(verdict.resetSeconds) },
    });
  };
}

/** The refusal of a JSON-RPC batch of more messages than one request may hold, or null. */
export function batchTooLarge(body: unknown): Response | null {
  if (!Array.isArray(body) || body.length <= MAX_BATCH_MESSAGES) return null;
  return problemResponse({
    status: 413,
    code: 'payload_too_large',
    detail: `The batch holds ${body.length} JSON-RPC messages; one request may hold ${MAX_BATCH_MESSAGES} at most. Send them in smaller batches.`,
  });
}
