-- Accounts and their API keys. A key is stored as its SHA-256 hash and a short display prefix.
create table accounts (
  id text primary key,
  name text not null,
  plan text not null check (plan in ('free', 'premium', 'enterprise')),
  created_at timestamptz not null
);

create table api_keys (
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  name text not null,
  prefix text not null unique,
  hash text not null,
  created_at timestamptz not null,
  revoked_at timestamptz
);

-- `seq` orders every list newest first and backs its cursor; ids stay opaque and random.
create table proxies (
  seq bigint generated always as identity,
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  name text not null,
  scheme text not null check (scheme in ('http', 'https', 'socks4', 'socks5')),
  host text not null,
  port int not null check (port between 1 and 65535),
  username text,
  password text,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index proxies_by_account on proxies (account_id, seq desc);

-- A profile has either its own proxy (the proxy_* columns) or points at a saved proxy (proxy_id), or neither.
create table profiles (
  seq bigint generated always as identity,
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  name text not null,
  proxy_id text references proxies (id) on delete restrict,
  proxy_scheme text check (proxy_scheme in ('http', 'https', 'socks4', 'socks5')),
  proxy_host text,
  proxy_port int check (proxy_port between 1 and 65535),
  proxy_username text,
  proxy_password text,
  tags jsonb not null default '[]',
  notes text not null default '',
  fingerprint jsonb not null default '{}',
  created_at timestamptz not null,
  updated_at timestamptz not null,
  check (proxy_id is null or proxy_scheme is null)
);
create index profiles_by_account on profiles (account_id, seq desc);
create index profiles_by_proxy on profiles (proxy_id) where proxy_id is not null;

-- No foreign key to profiles: a session outlives its profile (stop_reason 'profile_deleted').
create table sessions (
  seq bigint generated always as identity,
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  profile_id text not null,
  status text not null check (status in ('starting', 'running', 'stopping', 'stopped', 'failed')),
  headless boolean not null,
  cdp_url text,
  pid int,
  started_at timestamptz not null,
  stopped_at timestamptz,
  stop_reason text check (stop_reason in ('user', 'browser_exited', 'service_shutdown', 'profile_deleted')),
  error text,
  updated_at timestamptz not null
);
create index sessions_by_account on sessions (account_id, seq desc);
-- At most one live session per profile, enforced by the database (the 409 session_exists).
create unique index sessions_one_live_per_profile on sessions (profile_id)
  where status in ('starting', 'running', 'stopping');

create table automation_runs (
  seq bigint generated always as identity,
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  profile_id text not null,
  session_id text,
  -- The run started this session for itself and stops it when done.
  owns_session boolean not null default false,
  name text,
  status text not null check (status in ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  script jsonb not null,
  steps jsonb not null,
  output jsonb not null default '{}',
  error text,
  version int not null default 1,
  created_at timestamptz not null,
  started_at timestamptz,
  finished_at timestamptz
);
create index automation_runs_by_account on automation_runs (account_id, seq desc);
create index automation_runs_active_by_session on automation_runs (session_id, seq)
  where status in ('queued', 'running');

create table automation_artifacts (
  run_id text not null references automation_runs (id) on delete cascade,
  account_id text not null references accounts (id) on delete cascade,
  name text not null,
  content_type text not null,
  bytes bytea not null,
  created_at timestamptz not null,
  primary key (run_id, name)
);

-- One row per Idempotency-Key: 'in_flight' while the first request runs, then its stored 2xx answer.
create table idempotency_records (
  account_id text not null references accounts (id) on delete cascade,
  key text not null,
  fingerprint text not null,
  state text not null check (state in ('in_flight', 'done')),
  status int,
  headers jsonb,
  body text,
  created_at timestamptz not null,
  primary key (account_id, key)
);
create index idempotency_records_by_age on idempotency_records (created_at);
