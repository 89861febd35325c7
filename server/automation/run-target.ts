import type { RunCreate } from '../../lib/api/inputs/automation';
import { Conflict, isDomainError, NotFound } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import { isNoRoom } from '../sessions/capacity';
import { profileHeld } from '../sessions/lease-errors';
import type { SessionManager } from '../sessions/manager';
import { sessionOf } from '../sessions/session-of';
import { findHolder, type Holder } from '../store/leases';
import { getProfile } from '../store/profiles';
import type { RunRow } from '../store/runs';
import { everything, type Reader } from '../store/scope';
import { findSession, findSessionOfProfile, type SessionRow } from '../store/sessions';

/**
 * The profile a new run is for: the one it names, or the one of the running session it names. Refused with
 * `profile_held` while another member than the run's holder holds the profile: a run never drives their session.
 */
export async function targetProfile(
  db: Queryable,
  reader: Reader,
  holder: Holder,
  body: RunCreate,
): Promise<string> {
  const { id, name } = await namedTarget(db, reader, body);
  const held = await findHolder(db, id);
  if (held && held.member.id !== holder.id) throw profileHeld(name, held);
  return id;
}

async function namedTarget(
  db: Queryable,
  reader: Reader,
  body: RunCreate,
): Promise<{ id: string; name: string }> {
  if (body.session_id) {
    const session = await sessionOf(db, reader, body.session_id);
    if (session.status !== 'running') {
      throw new Conflict(
        'session_not_running',
        `This session is ${session.status}; start a new one, or run on the profile instead.`,
      );
    }
    return { id: session.profile_id, name: session.profile_name ?? 'This profile' };
  }
  const profile = await getProfile(db, reader, body.profile_id as string);
  if (!profile) throw new NotFound('profile');
  return profile;
}

/**
 * The session a run drives: the one it names, the profile's running one, or one it starts for itself; `noRoom`
 * when no node nor the plan has room for one now.
 */
export async function sessionFor(
  db: Queryable,
  sessions: Pick<SessionManager, 'start'>,
  run: RunRow,
): Promise<{ session: SessionRow; owned: boolean } | { noRoom: true } | { error: string }> {
  const live = run.session_id
    ? await findSession(db, everything(run.account_id), run.session_id)
    : await findSessionOfProfile(db, run.account_id, run.profile_id);
  if (live?.status === 'running') return { session: live, owned: false };
  if (run.session_id) return { error: 'The session stopped before this run could start.' };
  try {
    const holder = { id: run.holder_id ?? run.account_id, name: run.holder_name ?? 'a run' };
    return { session: await sessions.start(run.account_id, run.profile_id, holder), owned: true };
  } catch (error) {
    if (isNoRoom(error)) return { noRoom: true };
    const detail = isDomainError(error) ? error.message : 'its browser could not be started';
    return { error: `The run could not start a session: ${detail}` };
  }
}
