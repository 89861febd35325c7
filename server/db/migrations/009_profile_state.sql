-- A profile's browser data (cookies, storage, history, preferences; no caches) as saved when its last session
-- stopped, so that the profile starts with it on any process of the database. `version` counts the saves; a
-- profile's folder holds the version it was last saved as or restored from (server/sessions/profile-state.ts).
create table profile_states (
  profile_id text primary key references profiles (id) on delete cascade,
  version int not null,
  archive bytea not null,
  saved_at timestamptz not null
);
-- The archive is gzipped already: stored as it is, without PostgreSQL compressing it again (4.7 times faster to
-- store 30 MB here).
alter table profile_states alter column archive set storage external;
