import { z } from '../zod';
import { Id, listOf, Timestamp } from './common';
import { Identity } from './identity';

export const ProfileStatus = z.enum(['idle', 'running']);

/** The member who holds a profile (its session runs for them), since when, and with which session. */
export const HeldBy = z.object({
  member: z.object({ id: Id, name: z.string() }),
  since: Timestamp,
  session_id: z.nullable(z.string()),
});
export type HeldBy = z.infer<typeof HeldBy>;

/** A browser profile: its own cookies and storage, proxy and fingerprint. `proxy` never carries a password. */
export const Profile = z.object({
  id: Id,
  name: z.string(),
  proxy: z.nullable(z.string()),
  proxy_id: z.nullable(z.string()),
  /** Whether its saved proxy worked at its last check; absent when it has none or it was never checked. */
  proxy_works: z.optional(z.boolean()),
  tags: z.array(z.string()),
  notes: z.string(),
  fingerprint: z.object({
    user_agent: z.optional(z.string()),
    language: z.optional(z.string()),
    timezone: z.optional(z.string()),
    screen: z.optional(z.object({ width: z.number(), height: z.number() })),
  }),
  /** Null only for a profile made before identities existed, until its next start gives it one. */
  identity: z.nullable(Identity),
  status: ProfileStatus,
  session_id: z.nullable(z.string()),
  /** Who holds the profile now; null when free. Another member's start is refused (`profile_held`) meanwhile. */
  held_by: z.optional(z.nullable(HeldBy)),
  created_at: Timestamp,
  updated_at: Timestamp,
  /** When a session of it last started; null if none ever did. */
  last_used_at: z.nullable(Timestamp),
});

/** A page of profiles; `total` (every profile the filters match) only when asked with `?total=true`. */
export const ProfileList = z.extend(listOf(Profile), { total: z.optional(z.number()) });

/** A tag of the profiles a key may see, and how many of them carry it. */
export const ProfileTag = z.object({ tag: z.string(), count: z.number() });
/** The tags, most used first (then A to Z), a page at a time. */
export const ProfileTagList = listOf(ProfileTag);

/** A changed profile; a running one's changes apply at its next start, which `applies_at_next_start` says. */
export const ProfileUpdated = z.extend(Profile, { applies_at_next_start: z.boolean() });

export type Profile = z.infer<typeof Profile>;
export type ProfileUpdated = z.infer<typeof ProfileUpdated>;
export type ProfileTag = z.infer<typeof ProfileTag>;
