-- The dashboard: people sign up with an email and a password (hashed with scrypt); accounts the operator's
-- command line makes have neither. Emails are kept as typed and unique ignoring case.
alter table accounts add column email text;
alter table accounts add column password_hash text;
create unique index accounts_by_email on accounts (lower(email)) where email is not null;

-- A key may expire; when it was last used is recorded at most about once a minute.
alter table api_keys add column expires_at timestamptz;
alter table api_keys add column last_used_at timestamptz;
create index api_keys_by_account on api_keys (account_id, created_at desc);

-- Dashboard sign-ins: the cookie holds a random token, the table only its SHA-256.
create table dashboard_sessions (
  token_hash text primary key,
  account_id text not null references accounts (id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null
);
create index dashboard_sessions_by_account on dashboard_sessions (account_id);
create index dashboard_sessions_by_expiry on dashboard_sessions (expires_at);
