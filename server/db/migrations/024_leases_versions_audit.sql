-- A profile has one holder at a time (server/sessions/leases.ts). The row stays once made: `generation` counts
-- the takes, and every save of the profile's browser data carries the generation it was made under, so a holder
-- whose lease was taken over cannot write over what the newer holder saved. Free when `holder_id` is null or
-- `expires_at` has passed: the node that runs the session renews it, and a lost node's lease simply expires.
create table profile_leases (
  profile_id text primary key references profiles (id) on delete cascade,
  account_id text not null references accounts (id) on delete cascade,
  generation int not null,
  holder_id text,
  holder_name text,
  session_id text,
  node_id text,
  since timestamptz,
  expires_at timestamptz
);
create index profile_leases_held_by_node on profile_leases (node_id) where holder_id is not null;

alter table sessions add column lease_generation int;
alter table sessions drop constraint sessions_stop_reason_check;
alter table sessions add constraint sessions_stop_reason_check
  check (stop_reason in ('user', 'browser_exited', 'service_shutdown', 'profile_deleted', 'idle', 'node_lost',
                         'identity_check', 'cookies', 'run_finished', 'released', 'lease_lost'));

-- Who queued a run: the session it starts holds the profile for them.
alter table automation_runs add column holder_id text, add column holder_name text;
alter table room_waits add column holder_id text, add column holder_name text;

-- The last saved states of a profile are kept (five), each with the lease generation that saved it.
alter table profile_states drop constraint profile_states_pkey;
alter table profile_states add primary key (profile_id, version);
alter table profile_states add column generation int not null default 0;

-- Who did what to a profile or the workspace, and when; kept 90 days.
create table audit_records (
  seq bigint generated always as identity primary key,
  id text not null unique,
  account_id text not null references accounts (id) on delete cascade,
  action text not null,
  actor_id text not null,
  actor_name text not null,
  key_id text,
  profile_id text,
  detail jsonb not null default '{}',
  created_at timestamptz not null
);
create index audit_records_by_account on audit_records (account_id, seq);
create index audit_records_by_profile on audit_records (account_id, profile_id, seq) where profile_id is not null;
create index audit_records_by_time on audit_records (created_at);
