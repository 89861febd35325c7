-- Sign-in and sign-up attempts of the last window (server/dashboard/attempts.ts), shared by every process on the
-- database and kept across restarts, so the limits on password guessing hold however many processes answer and
-- whenever they restart. `address` is the client's address (through the trusted proxies), `email` in lower case;
-- `at_ms` is from the service's clock, never the database's. A successful attempt's row is deleted: only failures
-- and refusals count toward a lockout.
create table sign_in_attempts (
  id bigint generated always as identity primary key,
  address text not null,
  email text not null,
  at_ms bigint not null
);
create index sign_in_attempts_by_address on sign_in_attempts (address, at_ms);
create index sign_in_attempts_by_email on sign_in_attempts (email, at_ms);
create index sign_in_attempts_by_time on sign_in_attempts (at_ms);

-- Counts an attempt unless the window already holds `per_address` attempts from the address, `per_pair` from the
-- address for the email, or `per_email` for the email from anywhere. Answers the new attempt's id (null when
-- refused) and, when refused, the milliseconds until the limit reached lets one more through.
create function count_sign_in_attempt(
  of_address text, of_email text, now_ms bigint, window_ms bigint, per_address int, per_pair int, per_email int
)
  returns table (attempt_id bigint, wait_ms bigint)
  language plpgsql as $$
declare
  window_start bigint := now_ms - window_ms;
  from_address int;
  from_pair int;
  for_email int;
  oldest bigint;
begin
  -- Concurrent attempts of one address or one email, from any process, are counted one after another; always the
  -- address first, so two attempts never wait for each other's second lock.
  perform pg_advisory_xact_lock(hashtextextended('sign-in address ' || of_address, 0));
  perform pg_advisory_xact_lock(hashtextextended('sign-in email ' || of_email, 0));
  delete from sign_in_attempts where at_ms <= window_start;
  select count(*) into from_address from sign_in_attempts where address = of_address;
  select count(*) into from_pair from sign_in_attempts where address = of_address and email = of_email;
  select count(*) into for_email from sign_in_attempts where email = of_email;
  if from_address >= per_address then
    select min(at_ms) into oldest from sign_in_attempts where address = of_address;
  elsif from_pair >= per_pair then
    select min(at_ms) into oldest from sign_in_attempts where address = of_address and email = of_email;
  elsif for_email >= per_email then
    select min(at_ms) into oldest from sign_in_attempts where email = of_email;
  end if;
  if oldest is not null then
    attempt_id := null;
    wait_ms := oldest + window_ms - now_ms;
  else
    insert into sign_in_attempts (address, email, at_ms) values (of_address, of_email, now_ms)
      returning id into attempt_id;
    wait_ms := null;
  end if;
  return next;
end
$$;
