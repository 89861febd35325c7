import { Role } from '../schemas/workspace';
import { z } from '../zod';
import { DisplayName, Tags } from './common';

/** A scope given: the profiles with at least one of 1 to 20 tags (null: every profile). */
export const ScopeInput = z.nullable(
  z.strictObject({ tags: Tags.check(z.minLength(1, 'must name at least one tag')) }),
);

/** Body of POST /v1/keys: a key for an agent (a member named by the key's name), never above its maker's role. */
export const KeyCreate = z.strictObject({
  name: DisplayName,
  role: Role,
  scope: z.optional(ScopeInput),
  expires_in_days: z.optional(z.int().check(z.minimum(1), z.maximum(3650))),
});

/** Body of POST /v1/members/invitations. */
export const InvitationCreate = z.strictObject({
  email: z.email().check(z.maxLength(254)),
  role: Role,
  scope: z.optional(ScopeInput),
});

/** Body of PATCH /v1/members/:id: a new role, a new scope, or both. */
export const MemberUpdate = z.strictObject({ role: z.optional(Role), scope: z.optional(ScopeInput) }).check(
  z.refine((body) => body.role !== undefined || body.scope !== undefined, {
    message: 'give a role, a scope or both',
    path: ['role'],
  }),
);

export type KeyCreate = z.infer<typeof KeyCreate>;
export type InvitationCreate = z.infer<typeof InvitationCreate>;
export type MemberUpdate = z.infer<typeof MemberUpdate>;
