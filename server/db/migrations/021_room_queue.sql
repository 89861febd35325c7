-- Work that waits for room (a browser on some node, within the account's plan) waits here, in order: a node with
-- a free browser claims the next one with FOR UPDATE SKIP LOCKED, woken by NOTIFY pp_room (server/queue/).
create table room_waits (
  seq bigint generated always as identity primary key,
  account_id text not null references accounts (id) on delete cascade,
  profile_id text not null,
  -- The queued run it is for; null for a session start (bulk start).
  run_id text unique references automation_runs (id) on delete cascade,
  headless boolean,
  not_before timestamptz not null,
  created_at timestamptz not null,
  -- The node starting its browser; back to null if that node restarts or is lost first.
  claimed_by text
);
create index room_waits_by_profile on room_waits (profile_id, seq);
create index room_waits_claimed on room_waits (claimed_by) where claimed_by is not null;

-- When each account was last given room: the queue serves the account served longest ago first (round robin).
create table room_turns (
  account_id text primary key references accounts (id) on delete cascade,
  served_at timestamptz not null
);

-- How many times a run was queued again after a passing failure (a crashed browser, a lost node, a proxy timeout).
alter table automation_runs add column retries int not null default 0;
alter table automation_batches add column paused boolean not null default false;
