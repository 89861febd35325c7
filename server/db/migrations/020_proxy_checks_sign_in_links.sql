-- A proxy's last check (the answer of POST /v1/proxies/:id/check, and when), so that a list can say which
-- proxies fail (GET /v1/proxies?status=failing) on every device, not only in the browser that checked.
alter table proxies add column last_check jsonb;
alter table proxies add column checked_at timestamptz;
create index proxies_failing on proxies (account_id, seq) where (last_check ->> 'ok') = 'false';

-- One-time dashboard sign-in links (`keys sign-in-link`, printed by npm start for its local account): the link
-- holds a random token, the table only its SHA-256; a link signs in once, before it expires.
create table sign_in_links (
  token_hash text primary key,
  account_id text not null references accounts (id) on delete cascade,
  expires_at timestamptz not null
);
create index sign_in_links_by_expiry on sign_in_links (expires_at);
