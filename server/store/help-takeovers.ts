import type { Queryable } from '../db/driver';
import type { Holder } from './leases';

/** Marks an open request taken over by `person` from `agent` (once: a later taker keeps the first agent). */
export async function markTakenOver(
  tx: Queryable,
  requestId: string,
  person: Holder,
  agent: Holder,
): Promise<void> {
  await tx.query(
    `update help_requests set taken_by_id = $2, taken_by_name = $3,
            agent_id = coalesce(agent_id, $4), agent_name = coalesce(agent_name, $5)
      where id = $1 and status = 'open'`,
    [requestId, person.id, person.name, agent.id, agent.name],
  );
}

/**
 * Hands the live lease of the session from `fromId` to `to`: its generation, session and node stay, so the session
 * goes on and its saves are still fenced by it.
 */
export async function handLease(tx: Queryable, sessionId: string, fromId: string, to: Holder): Promise<void> {
  await tx.query(
    `update profile_leases set holder_id = $3, holder_name = $4
      where session_id = $1 and holder_id = $2 and expires_at > now()`,
    [sessionId, fromId, to.id, to.name],
  );
}

/** Gives the profiles of these ended requests that a person took over back to their agents. */
export async function giveBackTakenOver(tx: Queryable, requestIds: string[]): Promise<void> {
  if (requestIds.length === 0) return;
  await tx.query(
    `update profile_leases l set holder_id = h.agent_id, holder_name = h.agent_name
       from help_requests h
      where h.id = any($1::text[]) and h.agent_id is not null
        and l.session_id = h.session_id and l.holder_id = h.taken_by_id`,
    [requestIds],
  );
}
