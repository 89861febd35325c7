-- A profile's run history (GET /v1/automation/status?profile_id=…), newest first.
create index automation_runs_by_profile on automation_runs (account_id, profile_id, seq desc);
