import { type OfProfile, profileNameOf } from '../../lib/profile-name';
import { cachedProfiles } from '../../lib/storage';

/** The name of the profile a session or run belongs to (see profileNameOf). */
export async function profileName(of: OfProfile): Promise<string> {
  return profileNameOf(of, (await cachedProfiles.getValue())?.data);
}
