/**
 * A workspace member's role, from the most rights to the fewest: each role may do what the roles after it may.
 * owner: everything, the plan and the workspace's deletion included; admin: members, keys and the rest but the
 * owner's rights; editor: profiles, proxies, scripts, webhooks and cookies; runner: sessions and runs on the
 * profiles of its scope; viewer: reads.
 */
export const ROLES = ['owner', 'admin', 'editor', 'runner', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** What a member or key sees: every profile (null), or those with at least one of these tags. */
export interface Scope {
  tags: string[];
}

/** Whether `role` has at least the rights of `least`. */
export function isAtLeast(role: Role, least: Role): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(least);
}
