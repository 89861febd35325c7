import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../core/clock';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import { findNewerProfileState, storeProfileState } from '../store/profile-state';
import { BrowserLaunchError } from './launch-options';
import { type ArchivedFile, ProfileArchiveError, packFiles, unpackFiles } from './profile-archive';
import { HELD_VERSION_FILE, profileFiles, withinLimit } from './profile-files';

/** A profile's browser data follows the profile from one process (and machine) of the database to the next. */
export interface ProfileStateSync {
  /**
   * Before a launch: replaces the profile's folder with the stored state when that is newer than the folder's.
   * Throws a BrowserLaunchError when the stored state is damaged: the browser should not start on stale data.
   */
  restore(profileId: string, userDataDir: string): Promise<void>;
  /**
   * Once the browser and its helpers have exited: stores the folder, caches left out, as the profile's next
   * version, made under the lease `generation` (null: a session from before leases, as 0): refused when a later
   * holder has taken the profile since. Never throws; what went wrong is logged, and the stored state stays the
   * one before.
   */
  save(profileId: string, userDataDir: string, generation: number | null): Promise<void>;
}

export interface ProfileStateDeps {
  db: Database;
  clock: Clock;
  log: Logger;
  /** The most an unpacked archive may hold (PROFILE_STATE_MAX_BYTES); 0 turns saving and restoring off. */
  maxBytes: number;
}

export function createProfileStateSync({ db, clock, log, maxBytes }: ProfileStateDeps): ProfileStateSync {
  return {
    async restore(profileId, userDataDir) {
      if (maxBytes === 0) return;
      const started = performance.now();
      const stored = await findNewerProfileState(db, profileId, await readHeldVersion(userDataDir));
      if (!stored) return;
      let files: ArchivedFile[];
      try {
        files = await unpackFiles(stored.archive, maxBytes);
      } catch (error) {
        if (!(error instanceof ProfileArchiveError)) throw error;
        throw new BrowserLaunchError(
          `The profile's saved browser data (version ${stored.version}) was not restored: ${error.message}.`,
        );
      }
      await replaceFolder(userDataDir, files, stored.version);
      log.info('profile state restored', {
        profile_id: profileId,
        version: stored.version,
        bytes: stored.archive.length,
        files: files.length,
        ms: Math.round(performance.now() - started),
      });
    },

    async save(profileId, userDataDir, generation) {
      if (maxBytes === 0) return;
      const started = performance.now();
      try {
        const basedOn = await readHeldVersion(userDataDir);
        const found = await profileFiles(userDataDir);
        const chosen = withinLimit(found, maxBytes);
        if (!chosen) {
          log.warn('profile state over PROFILE_STATE_MAX_BYTES without its optional parts: not saved', {
            profile_id: profileId,
            max_bytes: maxBytes,
          });
          return;
        }
        const archive = await packFiles(
          userDataDir,
          chosen.files.map((file) => file.path),
          maxBytes,
        );
        const stored = await storeProfileState(db, clock, {
          profileId,
          basedOn,
          archive,
          generation: generation ?? 0,
        });
        if ('refused' in stored) {
          log.warn(REFUSALS[stored.refused], {
            profile_id: profileId,
            held_version: basedOn,
            lease_generation: generation,
          });
          return;
        }
        const { version } = stored;
        await writeFile(path.join(userDataDir, HELD_VERSION_FILE), String(version), { mode: 0o600 });
        log.info('profile state saved', {
          profile_id: profileId,
          version,
          bytes: archive.length,
          files: chosen.files.length,
          left_out: chosen.leftOut,
          ms: Math.round(performance.now() - started),
        });
      } catch (error) {
        log.error('could not save the profile state', { profile_id: profileId, error });
      }
    },
  };
}

const REFUSALS = {
  stale_holder: 'a save from a holder whose lease was taken over was refused: the newer holder’s state stays',
  newer_state: 'a newer profile state was stored elsewhere: this folder’s was not saved',
};

async function readHeldVersion(userDataDir: string): Promise<number> {
  try {
    const version = Number((await readFile(path.join(userDataDir, HELD_VERSION_FILE), 'utf8')).trim());
    return Number.isSafeInteger(version) && version > 0 ? version : 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/**
 * Puts the files in a new folder beside the profile's and swaps it in whole: nothing of the older data stays
 * mixed in, and a folder the browser may have left a symbolic link in is never written through.
 */
async function replaceFolder(userDataDir: string, files: ArchivedFile[], version: number): Promise<void> {
  const staging = `${userDataDir}.restoring-${randomBytes(6).toString('hex')}`;
  try {
    await mkdir(path.dirname(userDataDir), { recursive: true, mode: 0o700 });
    await mkdir(staging, { mode: 0o700 });
    for (const file of files) {
      const target = path.join(staging, file.path);
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await writeFile(target, file.bytes, { mode: 0o600, flag: 'wx' });
    }
    await writeFile(path.join(staging, HELD_VERSION_FILE), String(version), { mode: 0o600 });
    await rm(userDataDir, { recursive: true, force: true });
    await rename(staging, userDataDir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
