import type { HelpRequest } from '../../lib/api/schemas/help-requests';
import { Conflict, InvalidInput, PlanLimit } from '../core/domain-errors';

/* What asking for a person and answering refuse, as sentences for the person or the agent. */

const at = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** The tab already waits for a person (the open request, when it is still there to name): one at a time. */
export function helpPending(sessionId: string, open: HelpRequest | null): Conflict {
  const which = open ? ` (request ${open.id}: “${open.reason}”, until ${at(open.expires_at)})` : '';
  return new Conflict(
    'help_pending',
    `This tab already waits for a person${which}; a tab asks one thing at a time.`,
    sessionId,
  );
}

/** A second answer: the first one stands. */
export function alreadyAnswered(request: HelpRequest): Conflict {
  if (request.outcome === 'timed_out') return timedOut(request);
  if (request.outcome === 'withdrawn')
    return new Conflict(
      'help_answered',
      `This request was withdrawn at ${at(request.answered_at ?? request.expires_at)}: its session had ended, so nobody waits for an answer any more.`,
      request.session_id,
    );
  return new Conflict(
    'help_answered',
    `This request was already answered (${request.outcome}) at ${at(request.answered_at ?? request.expires_at)}; it takes one answer.`,
    request.session_id,
  );
}

export function timedOut(request: HelpRequest): Conflict {
  return new Conflict(
    'help_timed_out',
    `This request timed out at ${at(request.expires_at)}; nobody waits for an answer any more.`,
    request.session_id,
  );
}

/** A choice the request did not offer. */
export function notAChoice(request: HelpRequest): InvalidInput {
  const offered = request.choices.length
    ? `one of ${request.choices.map((choice) => `“${choice}”`).join(', ')}`
    : 'nothing: this request offers no choices';
  return new InvalidInput('choice', `must be ${offered}`, `Invalid body: choice: must be ${offered}.`);
}

/** An account waits for people on at most this many requests at once. */
export const MAX_OPEN_REQUESTS = 50;

export function tooManyOpen(): PlanLimit {
  return new PlanLimit(
    'help_limit',
    `This account already waits for a person on ${MAX_OPEN_REQUESTS} requests; answer or decline some first.`,
  );
}
