import type { HeldBy } from '../store/leases';

/** The profile is open by another member: the answer names who, since when, and with which session. */
export class ProfileHeld extends Error {
  override name = 'ProfileHeld';
  constructor(
    readonly heldBy: HeldBy,
    message: string,
  ) {
    super(message);
  }
}

export function profileHeld(profileName: string, heldBy: HeldBy): ProfileHeld {
  return new ProfileHeld(
    heldBy,
    `${profileName} is open by ${heldBy.member.name} since ${clockTime(heldBy.since)}.`,
  );
}

/** `10:32 UTC`: the service does not know the reader's time zone; `held_by.since` has the instant. */
function clockTime(at: Date): string {
  return `${at.toISOString().slice(11, 16)} UTC`;
}

/** `held_by` as the API answers it. */
export function heldByJson(heldBy: HeldBy) {
  return { member: heldBy.member, since: heldBy.since.toISOString(), session_id: heldBy.session_id };
}
