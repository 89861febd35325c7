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
 * Marks the profiles' starts as waiting in the service's line since `at`, but those whose session is already
 * known (its event came before the start's answer). Call it in turn.
 */
export async function markWaiting(
  profileIds: readonly string[],
  at: number,
  sessions: Cached<Session> | null,
) {
  const known = new Set(sessions?.data.map((session) => session.profile_id));
  const since = new Date(at).toISOString();
  const waiting = profileIds.filter((id) => !known.has(id)).map((id) => [id, since]);
  if (waiting.length)
    await waitingStarts.setValue({ ...(await waitingStarts.getValue()), ...Object.fromEntries(waiting) });
}
