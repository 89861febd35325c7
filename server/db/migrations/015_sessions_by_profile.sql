-- A profile's own sessions, newest first: its live or else latest session, without reading the account's history.
create index sessions_by_profile on sessions (account_id, profile_id, seq desc);
