import { rm } from 'node:fs/promises';
import type { ProfileUpdate } from '../../lib/api/inputs/profiles';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { z } from '../../lib/api/zod';
import type { Clock } from '../core/clock';
import { profileDataDir } from '../core/data-dir';
import { Conflict, InvalidInput, NotFound } from '../core/domain-errors';
import type { Logger } from '../core/log';
import type { Database, Queryable } from '../db/driver';
import type { Emit, EventLog } from '../events/event-log';
import { generateIdentity } from '../identity/generate';
import { cloneProfile, updateProfile } from '../store/profile-changes';
import { deleteIdleProfile, getProfile, insertProfile, type ProfileFields } from '../store/profiles';
import { findProxyRow } from '../store/proxies';
import type { Reader } from '../store/scope';
import type { StopReason } from '../store/sessions';
import { profileOf } from './profile-of';

/** What deleting a profile asks of the sessions (the session manager has it): stop the profile's session. */
export interface ProfileSessions {
  stopForProfile(accountId: string, profileId: string, reason: StopReason): Promise<void>;
}

/** Creates a profile of the account in `tx`, reported as `profile.created`. */
export async function createOwnProfile(
  tx: Queryable,
  emit: Emit,
  clock: Clock,
  accountId: string,
  body: ProfileFields,
): Promise<Profile> {
  await requireOwnProxy(tx, accountId, body.proxy_id);
  const identity = body.identity ?? generateIdentity(body.identity_preset);
  const profile = await insertProfile(tx, clock, accountId, { ...body, identity });
  await emit(accountId, 'profile.created', profile);
  return profile;
}

/** A copy of a profile of the account in `tx` under a new name, with a new identity unless `keepIdentity`. */
export async function cloneOwnProfile(
  tx: Queryable,
  emit: Emit,
  clock: Clock,
  accountId: string,
  id: string,
  options: { name: string | undefined; keepIdentity: boolean },
): Promise<Profile> {
  const identity = options.keepIdentity ? null : generateIdentity();
  const copy = await cloneProfile(tx, clock, accountId, id, { name: options.name, identity });
  if (!copy) throw new NotFound('profile');
  await emit(accountId, 'profile.created', copy);
  return copy;
}

/** Changes a profile of the account; a running browser keeps the settings it started with. */
export async function updateOwnProfile(
  { clock, events }: { clock: Clock; events: EventLog },
  accountId: string,
  id: string,
  body: z.output<typeof ProfileUpdate>,
): Promise<Profile & { applies_at_next_start: boolean }> {
  const profile = await events.writeWithEvents(async (tx, emit) => {
    await requireOwnProxy(tx, accountId, body.proxy_id);
    const { new_identity, identity_preset, ...changes } = body;
    if (new_identity) changes.identity = generateIdentity(identity_preset);
    const updated = await updateProfile(tx, clock, accountId, id, changes);
    if (updated) await emit(accountId, 'profile.updated', updated);
    return updated;
  });
  if (!profile) throw new NotFound('profile');
  return { ...profile, applies_at_next_start: profile.status === 'running' };
}

/** Deletes a profile of the account and its browser data; a running one only with `force` (its session stops). */
export async function deleteOwnProfile(
  deps: { db: Database; events: EventLog; sessions: ProfileSessions; dataDir: string; log: Logger },
  reader: Reader,
  id: string,
  force: boolean,
): Promise<void> {
  const { db, events, sessions, log } = deps;
  const accountId = reader.id;
  const profile = await profileOf(db, reader, id);
  if (profile.session_id) {
    if (!force) throw profileRunning(profile.session_id);
    await sessions.stopForProfile(accountId, id, 'profile_deleted');
  }
  const outcome = await events.writeWithEvents(async (tx, emit) => {
    const deleted = await deleteIdleProfile(tx, accountId, id);
    if (deleted === 'deleted') await emit(accountId, 'profile.deleted', { id, tags: profile.tags });
    return deleted;
  });
  if (outcome === 'missing') throw new NotFound('profile');
  if (outcome === 'running') {
    throw profileRunning((await getProfile(db, reader, id))?.session_id ?? null);
  }
  const browserData = profileDataDir(deps.dataDir, id);
  await rm(browserData, { recursive: true, force: true, maxRetries: 3 }).catch((error: unknown) => {
    log.warn('could not remove the browser data of a deleted profile', { path: browserData, error });
  });
}

/** Locked for share: the proxy cannot be deleted before the profile that points at it is committed. */
export async function requireOwnProxy(tx: Queryable, accountId: string, proxyId: string | null | undefined) {
  if (proxyId && !(await findProxyRow(tx, accountId, proxyId, { lock: true }))) {
    throw new InvalidInput(
      'proxy_id',
      'is not one of your saved proxies',
      'Invalid body: proxy_id: there is no saved proxy with this id.',
    );
  }
}

function profileRunning(sessionId: string | null): Conflict {
  return new Conflict(
    'profile_running',
    'The profile has a running session; stop it first, or delete with ?force=true to stop it for you.',
    sessionId,
  );
}
