import type { Profile } from '../../lib/api/schemas/profiles';
import { NotFound } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import { getProfile } from '../store/profiles';
import type { Reader } from '../store/scope';

/** The reader's profile of this id; another account's, or one outside the reader's scope, is not found. */
export async function profileOf(db: Queryable, reader: Reader, id: string): Promise<Profile> {
  const profile = await getProfile(db, reader, id);
  if (!profile) throw new NotFound('profile');
  return profile;
}
