-- A run on many profiles at once is one batch: its runs carry its id, and it is read, retried and exported whole.
create table automation_batches (
  seq bigint generated always as identity,
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  name text,
  created_at timestamptz not null
);
create index automation_batches_by_account on automation_batches (account_id, seq desc);
alter table automation_runs add column batch_id text references automation_batches (id) on delete set null;
create index automation_runs_by_batch on automation_runs (batch_id, profile_id, seq desc) where batch_id is not null;
