-- A session the service opened for its own work says which: an identity check, a cookie import or export, a run.
alter table sessions drop constraint sessions_stop_reason_check;
alter table sessions add constraint sessions_stop_reason_check
  check (stop_reason in ('user', 'browser_exited', 'service_shutdown', 'profile_deleted', 'idle', 'node_lost',
                         'identity_check', 'cookies', 'run_finished'));
