import type { Session } from '../../lib/api/schemas/sessions';
import { type Cached, waitingStarts } from '../../lib/storage';

type Waiting = Record<string, string>;

/** The waiting starts but those of `profileIds`: each began or ended, or its profile went. */
export function withoutStarts(waiting: Waiting, profileIds: readonly string[]): Waiting {
  return Object.fromEntries(Object.entries(waiting).filter(([id]) => !profileIds.includes(id)));
}

/** Forgets the profiles' waiting starts; call it in turn, with the write that tells why. */
export async function startsServed(profileIds: readonly string[]): Promise<void> {
  const waiting = await waitingStarts.getValue();
  if (profileIds.some((id) => id in waiting))
    await waitingStarts.setValue(withoutStarts(waiting, profileIds));
}

/**
 * Marks the profile's start as waiting in the service's line since `at`, unless its session is already known
 * (its event came before the start's answer). Call it in turn.
 */
export async function markWaiting(profileId: string, at: number, sessions: Cached<Session> | null) {
  if (sessions?.data.some((session) => session.profile_id === profileId)) return;
  await waitingStarts.setValue({
    ...(await waitingStarts.getValue()),
    [profileId]: new Date(at).toISOString(),
  });
}
