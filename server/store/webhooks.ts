import type { Webhook, WebhookDelivery } from '../../lib/api/schemas/events';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { type Page, toPage } from './pagination';
import type { Reader } from './scope';

/**
 * The condition that keeps a webhook within a scoped reader's sight: one made within its scope (the webhook's
 * tags among the reader's). The whole account's webhooks, and those of other scopes, are another account's to it.
 */
function webhookInScope(reader: Reader, params: unknown[]): string {
  if (!reader.scope) return '';
  params.push(reader.scope.tags);
  return ` and scope_tags is not null and scope_tags <@ $${params.length}::text[]`;
}

interface WebhookRow {
  seq: number;
  id: string;
  url: string;
  event_types: string[];
  status: Webhook['status'];
  disabled_reason: string | null;
  created_at: Date;
}

interface DeliveryRow {
  seq: number;
  id: string;
  event_id: string;
  event_type: string;
  status: WebhookDelivery['status'];
  attempts: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  created_at: Date;
}

/** A delivery as the sender needs it: where, signed with what, and what. */
export interface DueDelivery {
  id: string;
  account_id: string;
  url: string;
  secret: string;
  payload: string;
  attempts: number;
}

const WEBHOOK_COLUMNS = 'seq, id, url, event_types, status, disabled_reason, created_at';
const DELIVERY_COLUMNS = `seq, id, event_id::text as event_id, event_type, status, attempts, next_attempt_at,
  last_attempt_at, response_status, response_body, error, created_at`;

function toWebhook(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    event_types: row.event_types,
    status: row.status,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at.toISOString(),
  };
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at: row.status === 'pending' ? (row.next_attempt_at?.toISOString() ?? null) : null,
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
    response_status: row.response_status,
    response_body: row.response_body,
    error: row.error,
    created_at: row.created_at.toISOString(),
  };
}

export async function insertWebhook(
  db: Queryable,
  clock: Clock,
  fields: { maker: Reader; url: string; eventTypes: string[]; secret: string },
): Promise<Webhook> {
  const [row] = await db.query<WebhookRow>(
    `insert into webhooks (id, account_id, url, event_types, secret, status, created_at, scope_tags)
     values ($1, $2, $3, $4, $5, 'enabled', $6, $7) returning ${WEBHOOK_COLUMNS}`,
    [
      newId('whk'),
      fields.maker.id,
      fields.url,
      fields.eventTypes,
      fields.secret,
      clock.now(),
      fields.maker.scope?.tags ?? null,
    ],
  );
  if (!row) throw new Error('insert into webhooks returned no row');
  return toWebhook(row);
}

export async function listWebhooks(
  db: Queryable,
  reader: Reader,
  options: { limit: number; after: number | null },
): Promise<Page<Webhook>> {
  const params: unknown[] = [reader.id, options.after, options.limit + 1];
  const scope = webhookInScope(reader, params);
  const rows = await db.query<WebhookRow>(
    `select ${WEBHOOK_COLUMNS} from webhooks
      where account_id = $1 and ($2::bigint is null or seq < $2)${scope} order by seq desc limit $3`,
    params,
  );
  return toPage(rows, options.limit, toWebhook);
}

export async function deleteWebhook(db: Queryable, reader: Reader, id: string): Promise<boolean> {
  const params: unknown[] = [reader.id, id];
  const scope = webhookInScope(reader, params);
  const rows = await db.query(
    `delete from webhooks where account_id = $1 and id = $2${scope} returning id`,
    params,
  );
  return rows.length > 0;
}

/** The webhook's deliveries, newest first; null when the account has no such webhook in the reader's sight. */
export async function listDeliveries(
  db: Queryable,
  reader: Reader,
  webhookId: string,
  options: { limit: number; after: number | null },
): Promise<Page<WebhookDelivery> | null> {
  const params: unknown[] = [reader.id, webhookId];
  const scope = webhookInScope(reader, params);
  const owned = await db.query(`select 1 from webhooks where account_id = $1 and id = $2${scope}`, params);
  if (owned.length === 0) return null;
  const rows = await db.query<DeliveryRow>(
    `select ${DELIVERY_COLUMNS} from webhook_deliveries
      where webhook_id = $1 and ($2::bigint is null or seq < $2) order by seq desc limit $3`,
    [webhookId, options.after, options.limit + 1],
  );
  return toPage(rows, options.limit, toDelivery);
}

/**
 * Takes up to `limit` deliveries that are due, at most one per account and none of `busy` accounts (so that one
 * account's slow receivers hold up only its own deliveries), and leases them until `leaseUntil` (so that no
 * other sender takes them meanwhile).
 */
export async function claimDueDeliveries(
  db: Queryable,
  fields: { now: Date; leaseUntil: Date; busy: string[]; limit: number },
): Promise<DueDelivery[]> {
  return db.query<DueDelivery>(
    `with due as (
       select distinct on (d.account_id) d.id from webhook_deliveries d
         join webhooks w on w.id = d.webhook_id
        where d.status = 'pending' and d.next_attempt_at <= $1 and w.status = 'enabled'
          and d.account_id <> all($3::text[])
        order by d.account_id, d.next_attempt_at
        limit $4)
     update webhook_deliveries d set next_attempt_at = $2
       from webhooks w, due
      where d.id = due.id and w.id = d.webhook_id and d.next_attempt_at <= $1
      returning d.id, d.account_id, w.url, w.secret, d.payload, d.attempts`,
    [fields.now, fields.leaseUntil, fields.busy, fields.limit],
  );
}

/** When the next due delivery is, or null when none is pending. */
export async function nextDueAt(db: Queryable): Promise<Date | null> {
  const [row] = await db.query<{ at: Date | null }>(
    `select min(d.next_attempt_at) as at from webhook_deliveries d join webhooks w on w.id = d.webhook_id
      where d.status = 'pending' and w.status = 'enabled'`,
  );
  return row?.at ?? null;
}

export interface AttemptOutcome {
  at: Date;
  ok: boolean;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  /** When to try again after a failure; null when no try is left. */
  retryAt: Date | null;
}

/**
 * Records an attempt. A failure with no try left fails the delivery and disables its webhook with `reason`,
 * in one transaction.
 */
export async function recordAttempt(
  tx: Queryable,
  deliveryId: string,
  outcome: AttemptOutcome,
  disabledReason: string,
): Promise<void> {
  const status = outcome.ok ? 'succeeded' : outcome.retryAt ? 'pending' : 'failed';
  const [row] = await tx.query<{ webhook_id: string }>(
    `update webhook_deliveries
        set attempts = attempts + 1, last_attempt_at = $2, status = $3, next_attempt_at = $4,
            response_status = $5, response_body = $6, error = $7
      where id = $1 returning webhook_id`,
    [
      deliveryId,
      outcome.at,
      status,
      outcome.retryAt,
      outcome.responseStatus,
      outcome.responseBody,
      outcome.error,
    ],
  );
  if (row && status === 'failed') {
    await tx.query(
      `update webhooks set status = 'disabled', disabled_reason = $2 where id = $1 and status = 'enabled'`,
      [row.webhook_id, disabledReason],
    );
  }
}

/** Deliveries that ended before `before` are forgotten. */
export async function pruneDeliveries(db: Queryable, before: Date): Promise<void> {
  await db.query(`delete from webhook_deliveries where status <> 'pending' and created_at < $1`, [before]);
}
