import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import { recordKeyUsed } from '../store/account-keys';

/** Records when each key was last used, for the dashboard's list. */
export interface KeyUses {
  /** A request was authenticated with this key; cheap, and never waits on the database. */
  seen(keyId: string, at: Date): void;
}

/** A key's "last used" is written at most once per this long: a write per request would halve the service. */
export const KEY_USE_RESOLUTION_MS = 60_000;

export function createKeyUses(db: Database, log: Logger): KeyUses {
  const lastWritten = new Map<string, number>();
  return {
    seen(keyId, at) {
      const previous = lastWritten.get(keyId);
      if (previous !== undefined && at.getTime() - previous < KEY_USE_RESOLUTION_MS) return;
      lastWritten.set(keyId, at.getTime());
      recordKeyUsed(db, keyId, at).catch((error: unknown) =>
        log.warn('could not record when a key was used', { key_id: keyId, error }),
      );
    },
  };
}
