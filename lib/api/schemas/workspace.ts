import { ROLES } from '../roles';
import { z } from '../zod';
import { Timestamp } from './common';

export const Role = z.enum(ROLES);

/** null: every profile; otherwise the profiles with at least one of these tags. */
export const Scope = z.nullable(z.object({ tags: z.array(z.string()) }));

/** A key of the workspace (never the key itself): the member it acts as, with that member's role and scope. */
export const ApiKey = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  member_id: z.string(),
  role: Role,
  scope: Scope,
  created_at: Timestamp,
  expires_at: z.nullable(Timestamp),
  last_used_at: z.nullable(Timestamp),
  revoked_at: z.nullable(Timestamp),
});
/** A key just made: the key itself is in this answer only. */
export const CreatedApiKey = z.extend(ApiKey, { key: z.string() });
export const ApiKeyList = z.object({ data: z.array(ApiKey) });

/** A member: a person (with an email) or an agent (named by its key, without one). */
export const Member = z.object({
  id: z.string(),
  name: z.string(),
  email: z.nullable(z.string()),
  role: Role,
  scope: Scope,
  created_at: Timestamp,
});
export const MemberList = z.object({ data: z.array(Member) });

/** An invitation: its one-time link is in this answer only. */
export const Invitation = z.object({
  email: z.string(),
  role: Role,
  scope: Scope,
  url: z.string(),
  expires_at: Timestamp,
});

export type ApiKey = z.infer<typeof ApiKey>;
export type Member = z.infer<typeof Member>;
