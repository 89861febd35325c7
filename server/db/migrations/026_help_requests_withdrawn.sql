-- A request whose session ended before anybody answered is closed as withdrawn (nobody waits for it any more).
alter table help_requests drop constraint help_requests_outcome_check;
alter table help_requests add constraint help_requests_outcome_check
  check (outcome in ('done', 'answer', 'choice', 'declined', 'timed_out', 'withdrawn'));
