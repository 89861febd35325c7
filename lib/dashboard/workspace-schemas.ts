import { AuditQuery } from '../api/inputs/leases';
import { AuditList } from '../api/schemas/leases';
import { Invitation as InvitationSchema, Member, Role } from '../api/schemas/workspace';
import { z } from '../api/zod';
import { Email, Password, RoleChoice, ScopeChoice } from './schemas';

/**
 * What the dashboard's Members, Audit and Join pages send and receive. The service checks the same acts coming
 * through /v1 with lib/api/inputs/workspace.ts; here each message is a sentence for a form.
 */

export const InviteInput = z.strictObject({ email: Email, role: RoleChoice, scope: z.optional(ScopeChoice) });

export const MemberChangeInput = z.strictObject({
  role: z.optional(RoleChoice),
  scope: z.optional(ScopeChoice),
});

export const MemberList = z.object({ data: z.array(Member) });

/** The token of an invitation's link (`#/join/<token>`), and for joining, the password chosen. */
const Token = z
  .string()
  .check(z.minLength(1, 'The link has no token.'), z.maxLength(100, 'The link is not one.'));
export const InvitationLinkInput = z.strictObject({ token: Token });
export const JoinInput = z.strictObject({ token: Token, password: Password });

/** What an invitation's link offers, read before the person chooses a password. */
export const InvitationOffer = z.object({ email: z.string(), workspace: z.string(), role: Role });

export { AuditList, AuditQuery };
export type InvitationOffer = z.infer<typeof InvitationOffer>;
export const Invitation = InvitationSchema;
export type Invitation = z.infer<typeof Invitation>;
