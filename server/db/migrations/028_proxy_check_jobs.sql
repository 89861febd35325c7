-- Check all: one job per account at a time checks every saved proxy; its progress is kept here for any node to read.
create table proxy_check_jobs (
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  state text not null check (state in ('running', 'done', 'interrupted')),
  -- The proxies it checks: those saved when it began (seq up to this one).
  last_seq bigint not null,
  total int not null,
  checked int not null default 0,
  failing int not null default 0,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  finished_at timestamptz
);
create unique index proxy_check_jobs_one_running on proxy_check_jobs (account_id) where state = 'running';
