import type { Queryable } from '../db/driver';

const MINUTE_MS = 60_000;
/** The hour is counted in whole minutes: this one and the 59 before it. */
export const MINUTES_PER_HOUR = 60;

export interface CountedRequest {
  /** The request was counted: the account had made fewer than its limit in the hour. */
  allowed: boolean;
  /** Requests counted in the hour, this one included when it was allowed. */
  used: number;
  /** When the oldest minute with counted requests leaves the hour, freeing them all. */
  oldestLeavesAtMs: number;
}

/**
 * Counts a request of the account at `nowMs` unless it already made `limit` in the hour, and the key's own count
 * beside it when a key made it: one call of the database's `count_request` (migrations 008 and 023), exact
 * however many processes share the database.
 */
export async function countRequest(
  db: Queryable,
  accountId: string,
  nowMs: number,
  limit: number,
  keyId: string | null = null,
): Promise<CountedRequest> {
  const [row] = await db.query<{ allowed: boolean; used: number; oldest_minute: number | null }>(
    'select allowed, used, oldest_minute from count_request($1, $2, $3, $4)',
    [accountId, keyId, nowMs, limit],
  );
  if (!row) throw new Error('count_request answered no row');
  const oldestMinute = row.oldest_minute ?? minuteOf(nowMs);
  return {
    allowed: row.allowed,
    used: row.used,
    oldestLeavesAtMs: (oldestMinute + MINUTES_PER_HOUR) * MINUTE_MS,
  };
}

/** The account's requests counted per minute over the hour, the oldest minute first (60 numbers). */
export async function requestsPerMinute(db: Queryable, accountId: string, nowMs: number): Promise<number[]> {
  const firstMinute = minuteOf(nowMs) - (MINUTES_PER_HOUR - 1);
  const rows = await db.query<{ minute: number; count: number }>(
    'select minute, count from request_counts where account_id = $1 and minute between $2 and $3',
    [accountId, firstMinute, firstMinute + MINUTES_PER_HOUR - 1],
  );
  const counts = new Array<number>(MINUTES_PER_HOUR).fill(0);
  for (const { minute, count } of rows) counts[minute - firstMinute] = count;
  return counts;
}

function minuteOf(ms: number): number {
  return Math.floor(ms / MINUTE_MS);
}

/** Requests of one account and key (null: no key) in one minute, counted elsewhere and added here. */
export interface TalliedRequests {
  accountId: string;
  keyId: string | null;
  minute: number;
  count: number;
}

/**
 * Adds requests counted in a process's memory (those of plans without a limit, which `count_request` does not
 * see) to the account's and the keys' counts, in one statement; their minutes older than the hour go.
 */
export async function addRequestCounts(
  db: Queryable,
  tallied: TalliedRequests[],
  nowMs: number,
): Promise<void> {
  if (tallied.length === 0) return;
  await db.query(
    `with tallied as (
       select * from unnest($1::text[], $2::text[], $3::int[], $4::int[]) as t(account_id, key_id, minute, count)),
     pruned as (
       delete from request_counts where account_id in (select account_id from tallied) and minute < $5),
     pruned_keys as (
       delete from key_request_counts where key_id in (select key_id from tallied) and minute < $5),
     accounts as (
       insert into request_counts as counted (account_id, minute, count)
         select account_id, minute, sum(count) from tallied group by account_id, minute
       on conflict (account_id, minute) do update set count = counted.count + excluded.count)
     insert into key_request_counts as counted (key_id, minute, count)
       select key_id, minute, sum(count) from tallied where key_id is not null group by key_id, minute
     on conflict (key_id, minute) do update set count = counted.count + excluded.count`,
    [
      tallied.map((row) => row.accountId),
      tallied.map((row) => row.keyId),
      tallied.map((row) => row.minute),
      tallied.map((row) => row.count),
      minuteOf(nowMs) - (MINUTES_PER_HOUR - 1),
    ],
  );
}
