import type { HelpRequest } from '../../lib/api/schemas/help-requests';
import { Conflict, NotFound } from '../core/domain-errors';
import type { Database } from '../db/driver';
import { profileHeld } from '../sessions/lease-errors';
import { findHelpRequest } from '../store/help-requests';
import { handLease, markTakenOver } from '../store/help-takeovers';
import { type Holder, lockLease } from '../store/leases';
import type { Reader } from '../store/scope';
import { alreadyAnswered } from './handoff-errors';

/**
 * A person takes over an open request: the profile's lease passes from the agent whose session asked to them, so
 * that nobody else acts on it meanwhile; the request's end gives it back (handoff.ts). Taking it again is harmless;
 * another person's take-over is refused with who holds it.
 */
export async function takeOver(
  db: Database,
  reader: Reader,
  person: Holder,
  id: string,
): Promise<HelpRequest> {
  return db.transaction(async (tx) => {
    const request = await findHelpRequest(tx, reader, id);
    if (!request) throw new NotFound('help request');
    if (request.status !== 'open') throw alreadyAnswered(request);
    const { heldBy } = await lockLease(tx, request.profile_id);
    if (!heldBy || heldBy.session_id !== request.session_id)
      throw new Conflict(
        'session_not_running',
        'The session of this request no longer holds its profile; nobody waits on it.',
        request.session_id,
      );
    if (heldBy.member.id === person.id) return request;
    if (request.taken_by) throw profileHeld(request.profile_name, heldBy);
    await handLease(tx, request.session_id, heldBy.member.id, person);
    await markTakenOver(tx, id, person, heldBy.member);
    return { ...request, taken_by: person };
  });
}
