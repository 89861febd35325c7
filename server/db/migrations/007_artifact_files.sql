-- A run's screenshots are files in the data dir (server/automation/artifact-files.ts); the row says that one
-- exists, its type and size. Rows written before hold their bytes still.
alter table automation_artifacts alter column bytes drop not null;
alter table automation_artifacts add column size int;
