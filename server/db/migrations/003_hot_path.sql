-- Every process caches the accounts of keys it has seen; any change to an account or a key empties those caches
-- (server/accounts/key-cache.ts). A statement-level trigger: one notification per statement, delivered on commit.
create function notify_account_change() returns trigger language plpgsql as $$
begin
  perform pg_notify('account_changes', '');
  return null;
end
$$;

create trigger accounts_changed after update or delete on accounts
  for each statement execute function notify_account_change();
create trigger api_keys_changed after update or delete on api_keys
  for each statement execute function notify_account_change();

-- What `q=` searches (the name and the tags), lowercased once when written: LIKE on it costs a fifth of ILIKE
-- on PGlite, and a trigram index serves it where the planner finds that cheaper than reading the account's rows.
create extension if not exists pg_trgm;
alter table profiles add column search_text text not null
  generated always as (lower(name || ' ' || (tags::text))) stored;
-- Without GIN's pending list, which every search would read through until a vacuum merged it.
create index profiles_search on profiles using gin (search_text gin_trgm_ops) with (fastupdate = off);
