import type { UsageRow } from '../../lib/api/schemas/usage';
import type { Queryable } from '../db/driver';
import { MINUTES_PER_HOUR } from './request-counts';

const firstMinuteOfHour = (nowMs: number) => Math.floor(nowMs / 60_000) - (MINUTES_PER_HOUR - 1);

/** Every request of the account counted in the hour up to `nowMs`, whoever made it. */
export async function requestsInHour(db: Queryable, accountId: string, nowMs: number): Promise<number> {
  const [row] = await db.query<{ used: number }>(
    'select coalesce(sum(count), 0)::int as used from request_counts where account_id = $1 and minute >= $2',
    [accountId, firstMinuteOfHour(nowMs)],
  );
  return row?.used ?? 0;
}

/**
 * Each key's requests in the hour up to `nowMs`, the most first: the live keys, and the revoked ones that made
 * requests in the hour.
 */
export async function requestsPerKey(db: Queryable, accountId: string, nowMs: number): Promise<UsageRow[]> {
  return db.query<UsageRow>(
    `select k.id, k.name, k.member_id, coalesce(sum(c.count), 0)::int as requests
       from api_keys k left join key_request_counts c on c.key_id = k.id and c.minute >= $2
      where k.account_id = $1
      group by k.id
     having k.revoked_at is null or sum(c.count) > 0
      order by requests desc, k.created_at, k.id`,
    [accountId, firstMinuteOfHour(nowMs)],
  );
}

/** Each member's requests in the hour (their keys' together), the most first; a removed member while it has some. */
export async function requestsPerMember(
  db: Queryable,
  accountId: string,
  nowMs: number,
): Promise<UsageRow[]> {
  return db.query<UsageRow>(
    `select m.id, m.name, m.id as member_id, coalesce(sum(c.count), 0)::int as requests
       from members m
       left join api_keys k on k.member_id = m.id
       left join key_request_counts c on c.key_id = k.id and c.minute >= $2
      where m.account_id = $1
      group by m.id
     having m.removed_at is null or sum(c.count) > 0
      order by requests desc, m.created_at, m.id`,
    [accountId, firstMinuteOfHour(nowMs)],
  );
}
