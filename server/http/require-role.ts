import { isAtLeast, type Role } from '../../lib/api/roles';
import { Forbidden } from '../core/domain-errors';
import type { Actor } from '../store/accounts';

const ARTICLE: Record<Role, string> = { owner: 'An', admin: 'An', editor: 'An', runner: 'A', viewer: 'A' };

/** Refuses, with a sentence naming the role, an actor below `least` for `act` ("release profiles"). */
export function requireRole(actor: Actor, least: Role, act: string): void {
  if (isAtLeast(actor.role, least)) return;
  const needs = `${ARTICLE[least].toLowerCase()} ${least}${least === 'owner' ? '' : ' or above'}`;
  throw new Forbidden(`${ARTICLE[actor.role]} ${actor.role} may not ${act}; that takes ${needs}.`);
}
