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

-- `q=` is served by a trigram index over what it searches (the name and the tags), not by reading every row.
create extension if not exists pg_trgm;
create index profiles_search on profiles using gin ((name || ' ' || (tags::text)) gin_trgm_ops);
