import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import { recordKeyUsed } from '../store/account-keys';

/** Records when each key was last used, and last used by the extension, for the dashboard's list. */
export interface KeyUses {
  /** A request was authenticated with this key; cheap, and never waits on the database. */
  seen(keyId: string, at: Date, byExtension: boolean): void;
}

/** Whether a request came from a browser extension's page or worker: its Origin says so. */
export const fromExtension = (origin: string | undefined) =>
  origin !== undefined && /^(chrome|moz)-extension:\/\//.test(origin);

/** A key's "last used" is written at most once per this long: a write per request would halve the service. */
export const KEY_USE_RESOLUTION_MS = 60_000;

export function createKeyUses(db: Database, log: Logger): KeyUses {
  const lastWritten = new Map<string, number>();
  return {
    seen(keyId, at, byExtension) {
      const use = `${keyId} ${byExtension}`;
      const previous = lastWritten.get(use);
      if (previous !== undefined && at.getTime() - previous < KEY_USE_RESOLUTION_MS) return;
      lastWritten.set(use, at.getTime());
      recordKeyUsed(db, keyId, at, byExtension).catch((error: unknown) =>
        log.warn('could not record when a key was used', { key_id: keyId, error }),
      );
    },
  };
}
