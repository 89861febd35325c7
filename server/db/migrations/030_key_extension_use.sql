-- When the Profile Pilot extension last used a key (its requests carry the extension's Origin), so the dashboard
-- can warn before revoking the key the extension is connected with.
alter table api_keys add column extension_used_at timestamptz;
