import { ProfileHeld } from '../core/domain-errors';
import { type HeldBy, heldByAnswer } from '../store/leases';

/** The profile is open by another member: the answer names who, since when, and with which session. */
export function profileHeld(profileName: string, heldBy: HeldBy): ProfileHeld {
  return new ProfileHeld(
    `${profileName} is open by ${heldBy.member.name} since ${clockTime(heldBy.since)}; ask them, or an owner or admin, to release it.`,
    heldByAnswer(heldBy),
  );
}

/** `10:32 UTC`: the service does not know the reader's time zone; `held_by.since` has the instant. */
function clockTime(at: Date): string {
  return `${at.toISOString().slice(11, 16)} UTC`;
}
