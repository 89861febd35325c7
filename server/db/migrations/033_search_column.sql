-- What `q=` searches, in one column a trigram index serves: a profile's name, tags, notes and proxy (a saved
-- proxy's name and user@host:port, or its own user@host:port). Searching the notes and proxies beside the old
-- column (name and tags) read every row of the account: a `q=` page of 10,000 profiles cost ten times one of 1,000.
-- A saved proxy is another table's row, so the column is kept by triggers rather than generated.
drop index profiles_search;
alter table profiles drop column search_text;
alter table profiles add column search_text text not null default '';

create function profile_search_text() returns trigger language plpgsql as $$
begin
  new.search_text := lower(concat_ws(' ', new.name, new.tags::text, new.notes,
    (select concat_ws(' ', x.name, coalesce(x.username || '@', '') || x.host || ':' || x.port)
       from proxies x where x.id = new.proxy_id),
    coalesce(new.proxy_username || '@', '') || new.proxy_host || ':' || new.proxy_port));
  return new;
end
$$;
create trigger profiles_search_text
  before insert or update of name, tags, notes, proxy_id, proxy_username, proxy_host, proxy_port on profiles
  for each row execute function profile_search_text();

-- A saved proxy's words changed: the profiles that point at it are written again (their trigger reads the words;
-- the scheme is not searched, but it is in their answers).
create function proxy_words_changed() returns trigger language plpgsql as $$
begin
  update profiles set proxy_id = proxy_id where proxy_id = new.id;
  return null;
end
$$;
create trigger proxies_search_words after update of name, scheme, username, host, port on proxies
  for each row when ((old.name, old.scheme, old.username, old.host, old.port)
    is distinct from (new.name, new.scheme, new.username, new.host, new.port))
  execute function proxy_words_changed();

-- A profile's revision, raised by every change of its row and so of its saved proxy (above): a list keeps a
-- profile's answer between pages and reads it again only at a new revision.
alter table profiles add column revision bigint not null default 0;
create function raise_profile_revision() returns trigger language plpgsql as $$
begin
  new.revision := old.revision + 1;
  return new;
end
$$;
create trigger profiles_revision before update on profiles
  for each row execute function raise_profile_revision();

update profiles set name = name;
create index profiles_search on profiles using gin (search_text gin_trgm_ops) with (fastupdate = off);

-- A saved proxy's list searches its name and user@host:port the same way.
alter table proxies add column search_text text not null generated always as (lower(
  name || ' ' || coalesce(username || '@', '') || host || ':' || port::text
)) stored;
create index proxies_search on proxies using gin (search_text gin_trgm_ops) with (fastupdate = off);
