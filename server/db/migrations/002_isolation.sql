-- Sessions are reached through the service's CDP relay with a token minted per answer: nothing to store.
alter table sessions drop column cdp_url;
-- A session that no DevTools client or run used for SESSION_IDLE_TIMEOUT is stopped as `idle`.
alter table sessions drop constraint sessions_stop_reason_check;
alter table sessions add constraint sessions_stop_reason_check
  check (stop_reason in ('user', 'browser_exited', 'service_shutdown', 'profile_deleted', 'idle'));
