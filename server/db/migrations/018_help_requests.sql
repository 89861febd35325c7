-- A tab of a session asks for a person (an agent's request_human, a run's ask_human): open until answered or
-- until expires_at, on any process; the asker waits on the row, so a request outlives the process that waits.
create table help_requests (
  seq bigint generated always as identity,
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  session_id text not null,
  profile_id text not null,
  -- The DevTools target id of the tab that asked.
  tab_id text not null,
  run_id text,
  reason text not null,
  question text,
  choices text[] not null,
  status text not null check (status in ('open', 'closed')),
  outcome text check (outcome in ('done', 'answer', 'choice', 'declined', 'timed_out')),
  answer_text text,
  choice text,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  answered_at timestamptz
);
-- One open request per tab: a second is refused while the first waits.
create unique index help_requests_open_per_tab on help_requests (session_id, tab_id) where status = 'open';
create index help_requests_by_account on help_requests (account_id, seq desc);
create index help_requests_open_by_account on help_requests (account_id, seq desc) where status = 'open';
create index help_requests_due on help_requests (expires_at) where status = 'open';
