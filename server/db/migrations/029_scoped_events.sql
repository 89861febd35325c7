-- Whether an event is about a profile within a scope's tags (null: every profile), for the event stream of a
-- scoped member and the deliveries of a scoped webhook: a profile's own events by the tags they carry (a deleted
-- profile's included), the events of its sessions, runs and help requests by its tags now; an event about no
-- profile (a proxy's) is in every scope, an audit record of the workspace (profile_id null) in none but the whole.
create function event_in_scope(event_type text, data jsonb, in_tags text[]) returns boolean
  language sql stable as $$
    select case
      when in_tags is null then true
      when event_type in ('profile.created', 'profile.updated', 'profile.deleted')
        then coalesce(data -> 'tags', '[]'::jsonb) ?| in_tags
      when data ? 'profile_id'
        then exists (select from profiles p where p.id = data ->> 'profile_id' and p.tags ?| in_tags)
      else true
    end
  $$;

-- A webhook made by a scoped member receives only its scope's events, and only such members see it.
alter table webhooks add column scope_tags text[];

-- A person who takes over a help request holds its profile while they act: who took it, and the agent who held the
-- profile before, to whom the lease goes back when the request ends.
alter table help_requests add column taken_by_id text, add column taken_by_name text,
  add column agent_id text, add column agent_name text;
