import { isAtLeast, ROLES, type Role } from '../lib/api/roles';

type Scope = { tags: string[] } | null;

/** A scope as a person types it: tags separated by commas; nothing is every profile. */
export function scopeOf(text: string): Scope {
  const tags = text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  return tags.length === 0 ? null : { tags };
}

export const scopeText = (scope: Scope) => (scope ? scope.tags.join(', ') : '');

/** How a scope reads in a list. */
export const scopeLabel = (scope: Scope) => (scope ? `Tags: ${scope.tags.join(', ')}` : 'Every profile');

/** The roles a member of `role` may give: their own and those below it. */
export const grantable = (role: Role) => ROLES.filter((each) => isAtLeast(role, each));

export const SCOPE_HINT =
  'Tags separated by commas: only the profiles with one of them. Empty: every profile.';
