import { rm } from 'node:fs/promises';
import type { Clock } from '../core/clock';
import type { Config } from '../core/config';
import { accountArtifactsDir, profileDataDir } from '../core/data-dir';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import { revokeKeysOfAccount } from '../store/account-keys';
import { deleteAccountRow, profileIdsOfAccount } from '../store/dashboard-accounts';
import { decodeCursor } from '../store/pagination';
import { listRuns } from '../store/runs';
import { everything, type Reader } from '../store/scope';
import type { StopReason } from '../store/sessions';

/** What deleting an account asks of the sessions (the session manager has it): stop a profile's session. */
export interface AccountSessions {
  stopForProfile(accountId: string, profileId: string, reason: StopReason): Promise<void>;
}

/** What deleting an account asks of the runs (the run scheduler has it): cancel one. */
export interface AccountRuns {
  cancel(reader: Reader, runId: string): Promise<unknown>;
}

/**
 * Deletes an account and everything it holds: its keys stop working first (so nothing new starts meanwhile),
 * then its queued and running runs are cancelled, its sessions' browsers stopped, its rows deleted (profiles,
 * proxies, sessions, runs and artifacts go with the account by cascade) and its profiles' browser data removed.
 */
export async function deleteAccount(
  {
    db,
    clock,
    config,
    log,
    sessions,
    automation,
  }: {
    db: Database;
    clock: Clock;
    config: Config;
    log: Logger;
    sessions: AccountSessions;
    automation: AccountRuns;
  },
  accountId: string,
): Promise<void> {
  await revokeKeysOfAccount(db, clock, accountId);
  let after: number | null = null;
  do {
    const active = await listRuns(db, everything(accountId), { limit: 100, after, status: 'active' });
    for (const run of active.data) await automation.cancel(everything(accountId), run.id);
    after = active.next_cursor === null ? null : decodeCursor(active.next_cursor);
  } while (after !== null);
  const profileIds = await profileIdsOfAccount(db, accountId);
  for (const profileId of profileIds) await sessions.stopForProfile(accountId, profileId, 'profile_deleted');
  await deleteAccountRow(db, accountId);
  const folders = [
    ...profileIds.map((profileId) => profileDataDir(config.dataDir, profileId)),
    accountArtifactsDir(config.dataDir, accountId),
  ];
  await Promise.all(
    folders.map((folder) =>
      rm(folder, { recursive: true, force: true, maxRetries: 3 }).catch((error: unknown) =>
        log.warn('could not remove the files of a deleted account', { path: folder, error }),
      ),
    ),
  );
}
