-- Several service processes on one PostgreSQL (server/cluster/): each is a node that heartbeats; sessions and
-- runs name the node that runs their browser; a node that stops heartbeating has its sessions stopped `node_lost`.
create table nodes (
  id text primary key,
  -- Where the other nodes reach this one (its DevTools relay and its internal requests).
  url text not null,
  -- Browsers it may run at once (MAX_BROWSERS).
  capacity int not null,
  -- A node told to stop takes no new sessions while it saves and stops its own.
  draining boolean not null default false,
  heartbeat_at timestamptz not null default now()
);

-- One secret shared by the nodes through the database: it signs DevTools tokens any node accepts, and
-- authenticates the nodes' requests to each other.
create table cluster_secrets (
  name text primary key,
  secret bytea not null
);

alter table sessions add column node_id text;
create index sessions_live_by_node on sessions (node_id) where status in ('starting', 'running', 'stopping');
alter table sessions drop constraint sessions_stop_reason_check;
alter table sessions add constraint sessions_stop_reason_check
  check (stop_reason in ('user', 'browser_exited', 'service_shutdown', 'profile_deleted', 'idle', 'node_lost'));

alter table automation_runs add column node_id text;
create index automation_runs_active_by_node on automation_runs (node_id, seq)
  where status in ('queued', 'running');
