import { NotFound } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import { ownProfileIds } from '../store/profile-bulk';
import type { Reader } from '../store/scope';

/**
 * Refuses a profile outside a scoped reader's scope as not found, as another account's is, before an act that
 * names it (a start, an edit, a clone). Costs no statement for a reader that sees every profile.
 */
export async function requireInScope(db: Queryable, reader: Reader, profileId: string): Promise<void> {
  if (!reader.scope) return;
  if (!(await ownProfileIds(db, reader, [profileId])).has(profileId)) throw new NotFound('profile');
}
