-- What happened in each account, in order: the id is the stream's event id (Last-Event-ID resumes after it).
-- Written in the transaction of the change it reports; rows older than EVENT_RETENTION are pruned.
create table events (
  id bigint generated always as identity primary key,
  account_id text not null references accounts (id) on delete cascade,
  type text not null,
  data jsonb not null,
  created_at timestamptz not null
);
create index events_by_account on events (account_id, id);
create index events_by_age on events (created_at);

-- Endpoints that receive an account's events, signed with `secret` (Standard Webhooks, `whsec_…`).
create table webhooks (
  seq bigint generated always as identity,
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  url text not null,
  event_types text[] not null,
  secret text not null,
  status text not null check (status in ('enabled', 'disabled')),
  disabled_reason text,
  created_at timestamptz not null
);
create index webhooks_by_account on webhooks (account_id, seq desc);

-- One row per event sent to a webhook: its payload (kept while it is retried, after the event is pruned),
-- its attempts so far and the last answer.
create table webhook_deliveries (
  seq bigint generated always as identity,
  id text primary key,
  webhook_id text not null references webhooks (id) on delete cascade,
  account_id text not null references accounts (id) on delete cascade,
  event_id bigint not null,
  event_type text not null,
  payload text not null,
  status text not null check (status in ('pending', 'succeeded', 'failed')),
  attempts int not null default 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  response_status int,
  response_body text,
  error text,
  created_at timestamptz not null
);
create index webhook_deliveries_by_webhook on webhook_deliveries (webhook_id, seq desc);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
