/**
 * The data dir holds every account's database (proxy passwords, keys' hashes) and browser data (cookies): no
 * other local user may read or change any of it, whether the service made it or found it already there.
 */
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { openToOthers } from '../../support/browser-fixtures';
import { runCli, startService } from '../../support/harness';

const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'pp-modes-'));
  made.push(dir);
  return dir;
}

function modeOf(target: string): string {
  return (lstatSync(target).mode & 0o777).toString(8);
}

describe('the data dir', () => {
  it('is tightened at start-up when it already exists open: 0700 folders, 0600 files', async () => {
    const dataDir = path.join(await scratchDir(), 'data');
    // As `mkdir -p` and a plain write leave them under the usual umask, and as an earlier version left them.
    mkdirSync(path.join(dataDir, 'profiles', 'prf_old', 'Default'), { recursive: true });
    writeFileSync(path.join(dataDir, 'local-key'), 'pp_live_old\n');
    writeFileSync(path.join(dataDir, 'profiles', 'prf_old', 'Default', 'Cookies'), 'cookies');
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, 'local-key'), 0o644);
    chmodSync(path.join(dataDir, 'profiles', 'prf_old', 'Default', 'Cookies'), 0o666);
    chmodSync(path.join(dataDir, 'profiles'), 0o777);

    const service = await startService({ dataDir });
    try {
      expect(modeOf(dataDir)).toBe('700');
      expect(modeOf(path.join(dataDir, 'local-key'))).toBe('600');
      expect(modeOf(path.join(dataDir, 'profiles'))).toBe('700');
      expect(modeOf(path.join(dataDir, 'profiles', 'prf_old', 'Default', 'Cookies'))).toBe('600');
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      await service.close();
    }
  });

  it('gets only closed files from the service: the database, a profile’s browser data, the sockets', async () => {
    const dataDir = path.join(await scratchDir(), 'data');
    const service = await startService({ dataDir });
    try {
      const key = await service.createKey('premium');
      const api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
      const profile = await api.createProfile({ name: 'Closed' });
      const session = await api.startSession({ profile_id: profile.id });
      await api.stopSession({ session_id: session.id });
      // The database (created by PGlite with 0666 files and 0755 folders of its own), the admin socket, the
      // lock, and the profile folder Chromium filled.
      expect(readdirSync(dataDir)).toEqual(expect.arrayContaining(['pg', 'profiles', 'service.lock']));
      expect(readdirSync(path.join(dataDir, 'profiles', profile.id)).length).toBeGreaterThan(0);
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      await service.close();
    }
  });

  it('gets only closed files from the keys command when it creates the database itself', async () => {
    const dataDir = path.join(await scratchDir(), 'data');
    const created = await runCli(['keys', 'create', '--plan', 'free'], { dataDir });
    expect(created.code).toBe(0);
    expect(readdirSync(path.join(dataDir, 'pg')).length).toBeGreaterThan(0);
    expect(openToOthers(dataDir)).toEqual([]);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'is refused, with a sentence, when it holds files of another user (they could change them)',
    async () => {
      const dataDir = path.join(await scratchDir(), 'data');
      mkdirSync(dataDir, { mode: 0o700 });
      const planted = path.join(dataDir, 'planted');
      writeFileSync(planted, '');
      chownSync(planted, 65534, 65534);
      const attempt = startService({ dataDir });
      await expect(attempt).rejects.toThrow(
        `${planted} in the data dir belongs to another user (uid 65534), not to the service's user (uid 0).`,
      );
      expect(lstatSync(planted).uid).toBe(65534);
    },
  );
});
