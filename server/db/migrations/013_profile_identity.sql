-- A profile's browser identity (lib/api/schemas/identity.ts): generated when the profile is made; null only for
-- profiles made before this migration, which get one at their next start.
alter table profiles add column identity jsonb;
