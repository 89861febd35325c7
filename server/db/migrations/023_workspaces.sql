-- An account is a workspace of members: people (who sign in with an email and a password) and agents (named by
-- their key). Every key belongs to a member and acts with its role and scope (null: every profile; otherwise
-- {"tags": [...]}, the profiles with at least one of those tags). A removed member keeps its row for the record.
create table members (
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  name text not null,
  email text,
  password_hash text,
  role text not null check (role in ('owner', 'admin', 'editor', 'runner', 'viewer')),
  scope jsonb,
  created_at timestamptz not null,
  removed_at timestamptz
);
create index members_by_account on members (account_id, created_at);
create unique index members_by_email on members (lower(email)) where email is not null and removed_at is null;

-- Every existing account's owner is its only member, with the account's email and password; its keys are theirs.
insert into members (id, account_id, name, email, password_hash, role, created_at)
  select 'mem_' || substr(id, 5), id, coalesce(email, name), email, password_hash, 'owner', created_at
    from accounts;
alter table accounts drop column password_hash;

alter table api_keys add column member_id text references members (id) on delete cascade;
update api_keys set member_id = 'mem_' || substr(account_id, 5);
alter table api_keys alter column member_id set not null;
create index api_keys_by_member on api_keys (member_id);

alter table dashboard_sessions add column member_id text references members (id) on delete cascade;
update dashboard_sessions set member_id = 'mem_' || substr(account_id, 5);
alter table dashboard_sessions alter column member_id set not null;

alter table sign_in_links add column member_id text references members (id) on delete cascade;
update sign_in_links set member_id = 'mem_' || substr(account_id, 5);
alter table sign_in_links alter column member_id set not null;

-- A role or scope change, or a removal, reaches every process's key cache as a key's change does (migration 003).
create trigger members_changed after update or delete on members
  for each statement execute function notify_account_change();

-- Invitations: the link holds a random token, the table only its SHA-256; a link makes one member, once.
create table invitations (
  token_hash text primary key,
  account_id text not null references accounts (id) on delete cascade,
  email text not null,
  role text not null check (role in ('owner', 'admin', 'editor', 'runner', 'viewer')),
  scope jsonb,
  invited_by text not null references members (id) on delete cascade,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index invitations_by_account on invitations (account_id, created_at desc);

-- Each key's requests per minute over the last hour, beside its account's, for the dashboard's usage per member
-- and key; counted by the same call as the account's, in the same round trip.
create table key_request_counts (
  key_id text not null references api_keys (id) on delete cascade,
  minute int not null,
  count int not null,
  primary key (key_id, minute)
);

drop function count_request(text, bigint, int);
create function count_request(of_account text, of_key text, now_ms bigint, hourly_limit int)
  returns table (allowed boolean, used int, oldest_minute int)
  language plpgsql as $$
declare
  this_minute int := floor(now_ms / 60000.0);
  first_minute int := this_minute - 59;
begin
  perform set_config('synchronous_commit', 'off', true);
  perform pg_advisory_xact_lock(hashtextextended(of_account, 0));
  delete from request_counts where account_id = of_account and minute < first_minute;
  select coalesce(sum(request_counts.count), 0), min(request_counts.minute) into used, oldest_minute
    from request_counts where account_id = of_account and minute >= first_minute;
  allowed := used < hourly_limit;
  if allowed then
    insert into request_counts as counted (account_id, minute, count) values (of_account, this_minute, 1)
      on conflict (account_id, minute) do update set count = counted.count + 1;
    if of_key is not null then
      delete from key_request_counts where key_id = of_key and minute < first_minute;
      insert into key_request_counts as counted (key_id, minute, count) values (of_key, this_minute, 1)
        on conflict (key_id, minute) do update set count = counted.count + 1;
    end if;
    used := used + 1;
    oldest_minute := least(coalesce(oldest_minute, this_minute), this_minute);
  end if;
  return next;
end
$$;
