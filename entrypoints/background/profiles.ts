import { cachedProfiles } from '../../lib/storage';

/** A profile's name as last listed, or its id when the popup has not listed it yet. */
export async function profileName(id: string): Promise<string> {
  const profiles = await cachedProfiles.getValue();
  return profiles?.data.find((profile) => profile.id === id)?.name ?? id;
}
