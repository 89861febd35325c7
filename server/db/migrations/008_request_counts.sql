-- Each account's requests per minute over the last hour, shared by every process on the database and kept across
-- restarts: the plan's hourly limit is checked against their sum (server/http/rate-limit.ts), and the dashboard
-- draws them. `minute` is the time in whole minutes since 1970, from the service's clock, never the database's.
create table request_counts (
  account_id text not null references accounts (id) on delete cascade,
  minute int not null,
  count int not null,
  primary key (account_id, minute)
);

-- Counts one request of the account at `now_ms` unless it already made `hourly_limit` in the 60 minutes up to and
-- including this one; answers whether it was counted, the requests counted in those minutes (this one included)
-- and the oldest minute among them (null when none). One call is one round trip, whatever the number of processes.
create function count_request(of_account text, now_ms bigint, hourly_limit int)
  returns table (allowed boolean, used int, oldest_minute int)
  language plpgsql as $$
declare
  this_minute int := floor(now_ms / 60000.0);
  first_minute int := this_minute - 59;
begin
  -- A count lost in a crash gives back at most the requests of the last moments; waiting for the WAL to reach
  -- the disk on every request would cost more than the count is worth. A clean shutdown loses none.
  perform set_config('synchronous_commit', 'off', true);
  -- Concurrent requests of one account, from any process, are counted one after another until commit.
  perform pg_advisory_xact_lock(hashtextextended(of_account, 0));
  delete from request_counts where account_id = of_account and minute < first_minute;
  select coalesce(sum(request_counts.count), 0), min(request_counts.minute) into used, oldest_minute
    from request_counts where account_id = of_account and minute >= first_minute;
  allowed := used < hourly_limit;
  if allowed then
    insert into request_counts as counted (account_id, minute, count) values (of_account, this_minute, 1)
      on conflict (account_id, minute) do update set count = counted.count + 1;
    used := used + 1;
    oldest_minute := least(coalesce(oldest_minute, this_minute), this_minute);
  end if;
  return next;
end
$$;
