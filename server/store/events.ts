import type { EventType, ServiceEvent } from '../../lib/api/schemas/events';
import type { Queryable } from '../db/driver';
import { storableJson } from './runs';
import type { Reader } from './scope';

interface EventRow {
  id: string;
  type: string;
  data: Record<string, unknown>;
  created_at: Date;
}

// Any constant: the first half of the two-part advisory lock that orders an account's events.
const EVENT_ORDER_LOCK = 7_208_432;

/**
 * Appends an event to the account's log and queues it for each of the account's enabled webhooks that asked for
 * its type, in the caller's transaction. An account's appends are serialised until commit (an advisory lock),
 * so its event ids are committed in increasing order and a reader that saw id N never later finds one below N.
 */
export async function appendEvent(
  tx: Queryable,
  event: { accountId: string; type: EventType; data: object; createdAt: Date },
): Promise<{ id: string; deliveries: number }> {
  const payload = storableJson({
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    data: event.data,
  });
  const [row] = await tx.query<{ id: string; deliveries: number }>(
    `with ordered as (select pg_advisory_xact_lock($1, hashtext($2))),
     event as (
       insert into events (account_id, type, data, created_at)
       select $2, $3, ($4::jsonb) -> 'data', $5 from ordered returning id),
     queued as (
       insert into webhook_deliveries
         (id, webhook_id, account_id, event_id, event_type, payload, status, next_attempt_at, created_at)
       select 'whd_' || replace(gen_random_uuid()::text, '-', ''), w.id, $2, event.id, $3, $4, 'pending', $5, $5
         from webhooks w, event
        where w.account_id = $2 and w.status = 'enabled' and $3 = any(w.event_types)
          and event_in_scope($3, ($4::jsonb) -> 'data', w.scope_tags)
       returning 1)
     select event.id::text as id, (select count(*) from queued)::int as deliveries from event`,
    [EVENT_ORDER_LOCK, event.accountId, event.type, payload, event.createdAt],
  );
  if (!row) throw new Error('the event was not stored');
  return row;
}

/**
 * Appends the account's events in order, as appendEvent does one, in two statements whatever their number: a
 * thousand profiles changed at once are a thousand events without a thousand round trips.
 */
export async function appendEvents(
  tx: Queryable,
  events: { accountId: string; type: EventType; data: object; createdAt: Date }[],
): Promise<{ deliveries: number }> {
  const [first] = events;
  if (!first) return { deliveries: 0 };
  const payloads = events.map((event) =>
    storableJson({ type: event.type, timestamp: event.createdAt.toISOString(), data: event.data }),
  );
  const types = events.map((event) => event.type);
  // Identity values follow the insert's order, which follows the select's: the nth id is the nth event's.
  const rows = await tx.query<{ id: string }>(
    `with ordered as (select pg_advisory_xact_lock($1, hashtext($2)))
     insert into events (account_id, type, data, created_at)
     select $2, t.type, (t.payload::jsonb) -> 'data', $5
       from unnest($3::text[], $4::text[]) with ordinality as t(type, payload, n), ordered order by t.n
     returning id::text as id`,
    [EVENT_ORDER_LOCK, first.accountId, types, payloads, first.createdAt],
  );
  const ids = rows.map((row) => BigInt(row.id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const [queued] = await tx.query<{ deliveries: number }>(
    `with queued as (
       insert into webhook_deliveries
         (id, webhook_id, account_id, event_id, event_type, payload, status, next_attempt_at, created_at)
       select 'whd_' || replace(gen_random_uuid()::text, '-', ''), w.id, $1, t.event_id, t.type, t.payload,
              'pending', $5, $5
         from unnest($2::bigint[], $3::text[], $4::text[]) as t(event_id, type, payload)
         join webhooks w on w.account_id = $1 and w.status = 'enabled' and t.type = any(w.event_types)
          and event_in_scope(t.type, t.payload::jsonb -> 'data', w.scope_tags)
       returning 1)
     select count(*)::int as deliveries from queued`,
    [first.accountId, ids.map(String), types, payloads, first.createdAt],
  );
  return { deliveries: queued?.deliveries ?? 0 };
}

/**
 * The account's events after `afterId`, oldest first, about profiles within the reader's scope (migration 029). Not
 * `audit.recorded`: the audit log is for owners and admins (GET /v1/audit), and reaches only the webhooks that ask
 * for it.
 */
export async function eventsAfter(
  db: Queryable,
  reader: Reader,
  afterId: string,
  limit: number,
): Promise<ServiceEvent[]> {
  const params: unknown[] = [reader.id, afterId, limit];
  if (reader.scope) params.push(reader.scope.tags);
  const scope = reader.scope ? ' and event_in_scope(type, data, $4::text[])' : '';
  const rows = await db.query<EventRow>(
    `select id::text as id, type, data, created_at from events
      where account_id = $1 and id > $2::bigint and type <> 'audit.recorded'${scope} order by id limit $3`,
    params,
  );
  // Each row was written through the event log's typed `emit`: its type names the shape of its data.
  return rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }) as ServiceEvent);
}

/** The id of the account's latest event ('0' when it has none kept): a new stream starts after it. */
export async function latestEventId(db: Queryable, accountId: string): Promise<string> {
  const [row] = await db.query<{ id: string | null }>(
    'select max(id)::text as id from events where account_id = $1',
    [accountId],
  );
  return row?.id ?? '0';
}

/** Whether the account's event `id` is still kept: resuming after one that is not may have missed some. */
export async function isEventKept(db: Queryable, accountId: string, id: string): Promise<boolean> {
  const rows = await db.query('select 1 from events where account_id = $1 and id = $2::bigint', [
    accountId,
    id,
  ]);
  return rows.length > 0;
}

export async function pruneEvents(db: Queryable, before: Date): Promise<void> {
  await db.query('delete from events where created_at < $1', [before]);
}
