import type { Profile } from './api/schemas/profiles';

/** What a session or run belongs to, as a person knows it. */
export interface OfProfile {
  profile_id: string;
  profile_name?: string | null | undefined;
}

/** Its profile's name from the service, else as last listed (events recorded before names), else its id. */
export function profileNameOf(of: OfProfile, listed: readonly Pick<Profile, 'id' | 'name'>[] = []): string {
  return of.profile_name ?? listed.find(({ id }) => id === of.profile_id)?.name ?? of.profile_id;
}
