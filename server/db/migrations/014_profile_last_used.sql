-- When a session of the profile last started: the popup shows it in every row, for a person with hundreds of
-- profiles to tell the ones in use from the forgotten ones. Set where a session is inserted; filled from the
-- sessions kept so far.
alter table profiles add column last_used_at timestamptz;
update profiles p set last_used_at = (select max(s.started_at) from sessions s where s.profile_id = p.id);
