import type { ProfileUpdate } from '../../lib/api/inputs/profiles';
import { parseProxyUrl } from '../../lib/api/proxy-url';
import type { Identity } from '../../lib/api/schemas/identity';
import type { Profile } from '../../lib/api/schemas/profiles';
import type { z } from '../../lib/api/zod';
import type { Clock } from '../core/clock';
import { newId } from '../core/ids';
import type { Queryable } from '../db/driver';
import { getProfile } from './profiles';
import { everything } from './scope';

/** A validated ProfileUpdate body (a proxy_id already checked to be the account's); `identity` replaces the profile's. */
export type ProfileChanges = Omit<z.output<typeof ProfileUpdate>, 'new_identity' | 'identity_preset'>;

const MAX_NAME = 100;

/**
 * Changes the fields given and leaves the others; a new proxy (its own, a saved one's id, or null) replaces
 * whichever the profile had. Null when the account has no such profile.
 */
export async function updateProfile(
  db: Queryable,
  clock: Clock,
  accountId: string,
  id: string,
  changes: ProfileChanges,
): Promise<Profile | null> {
  const values: unknown[] = [accountId, id];
  const sets: string[] = [];
  const set = (column: string, value: unknown, cast = '') => {
    values.push(value);
    sets.push(`${column} = $${values.length}${cast}`);
  };
  if (changes.name !== undefined) set('name', changes.name);
  if (changes.proxy !== undefined || changes.proxy_id !== undefined) {
    const own = changes.proxy ? parseProxyUrl(changes.proxy) : null;
    if (own && 'error' in own) throw new Error(`proxy was validated but does not parse: ${own.error}`);
    set('proxy_id', changes.proxy_id ?? null);
    set('proxy_scheme', own?.scheme ?? null);
    set('proxy_host', own?.host ?? null);
    set('proxy_port', own?.port ?? null);
    set('proxy_username', own?.username ?? null);
    set('proxy_password', own?.password ?? null);
  }
  if (changes.tags !== undefined) set('tags', JSON.stringify(changes.tags), '::jsonb');
  if (changes.notes !== undefined) set('notes', changes.notes);
  if (changes.fingerprint !== undefined) set('fingerprint', JSON.stringify(changes.fingerprint), '::jsonb');
  if (changes.identity !== undefined) set('identity', JSON.stringify(changes.identity), '::jsonb');
  set('updated_at', clock.now());
  const rows = await db.query<{ id: string }>(
    `update profiles set ${sets.join(', ')} where account_id = $1 and id = $2 returning id`,
    values,
  );
  return rows.length ? getProfile(db, everything(accountId), id) : null;
}

/**
 * A new profile with the settings of `id` (proxy with its password, tags, notes, fingerprint) and none of its
 * browser data, named `name` or "<name> (copy)", presenting `identity` (null: the original's). Null when the
 * account has no such profile.
 */
export async function cloneProfile(
  db: Queryable,
  clock: Clock,
  accountId: string,
  id: string,
  copy: { name: string | undefined; identity: Identity | null },
): Promise<Profile | null> {
  const copyId = newId('prf');
  const rows = await db.query<{ id: string }>(
    `insert into profiles (id, account_id, name, proxy_id, proxy_scheme, proxy_host, proxy_port, proxy_username,
                           proxy_password, tags, notes, fingerprint, identity, created_at, updated_at)
     select $3, account_id, coalesce($4, left(name || ' (copy)', ${MAX_NAME})), proxy_id, proxy_scheme,
            proxy_host, proxy_port, proxy_username, proxy_password, tags, notes, fingerprint,
            coalesce($6::jsonb, identity), $5, $5
       from profiles where account_id = $1 and id = $2
     returning id`,
    [accountId, id, copyId, copy.name ?? null, clock.now(), copy.identity && JSON.stringify(copy.identity)],
  );
  return rows.length ? getProfile(db, everything(accountId), copyId) : null;
}
