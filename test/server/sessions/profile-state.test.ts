import { existsSync, lstatSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../server/core/clock';
import { createLogger } from '../../../server/core/log';
import type { Database } from '../../../server/db/driver';
import { migrate } from '../../../server/db/migrate';
import { openDatabase } from '../../../server/db/open';
import { BrowserLaunchError } from '../../../server/sessions/launch-options';
import { ProfileArchiveError, packFiles } from '../../../server/sessions/profile-archive';
import { HELD_VERSION_FILE, profileFiles } from '../../../server/sessions/profile-files';
import { createProfileStateSync } from '../../../server/sessions/profile-state';
import { createAccountWithKey } from '../../../server/store/accounts';
import { deleteAccountRow } from '../../../server/store/dashboard-accounts';
import { takeLease } from '../../../server/store/leases';
import { listProfileVersions } from '../../../server/store/profile-state';
import { deleteIdleProfile, insertProfile } from '../../../server/store/profiles';
import { makeTempDir, openToOthers } from '../../support/browser-fixtures';
import { incompressibleBytes } from '../../support/seeded-random';

/* A profile's browser data saved to the database from one data dir and restored into another. */

let db: Database;
let accountId: string;
let temp: ReturnType<typeof makeTempDir>;
const logs: Record<string, unknown>[] = [];
const log = createLogger({ write: (line) => logs.push(JSON.parse(line)) });
const sync = (maxBytes = 2 ** 20) => createProfileStateSync({ db, clock: systemClock, log, maxBytes });

beforeAll(async () => {
  temp = makeTempDir('pp-profile-state');
  db = await openDatabase({ dataDir: path.join(temp.path, 'db') });
  await migrate(db);
  accountId = (await createAccountWithKey(db, systemClock, { plan: 'enterprise' })).account_id;
});

afterAll(async () => {
  await db?.close();
  temp?.remove();
});

const lease = (profileId: string, holderId: string, nodeId: string) => ({
  accountId,
  profileId,
  holder: { id: holderId, name: holderId },
  sessionId: null,
  nodeId,
  ttlMs: 30_000,
});

async function newProfile(): Promise<string> {
  return (await insertProfile(db, systemClock, accountId, { name: 'stateful' })).id;
}

/** The profile's folder in one machine's data dir. */
function folderOn(machine: string, profileId: string): string {
  return path.join(temp.path, machine, 'profiles', profileId);
}

async function writeFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), content);
  }
}

/** Every regular file under `root` and its content; symbolic links are listed as such. */
async function filesIn(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const name of await readdir(root, { recursive: true })) {
    const stats = lstatSync(path.join(root, name));
    if (stats.isSymbolicLink()) found[name] = 'symbolic link';
    else if (stats.isFile()) found[name] = (await readFile(path.join(root, name))).toString('base64');
  }
  return found;
}

/** Files as `filesIn` lists them. */
function asListed(files: Record<string, string | Buffer>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(files).map(([name, content]) => [name, Buffer.from(content).toString('base64')]),
  );
}

async function storedVersion(profileId: string): Promise<number | null> {
  const [row] = await db.query<{ version: number }>(
    'select max(version) as version from profile_states where profile_id = $1',
    [profileId],
  );
  return row?.version ?? null;
}

const PROFILE_ITSELF = {
  'Local State': '{"browser":{}}',
  'Default/Cookies': incompressibleBytes(3000),
  'Default/Preferences': '{"profile":{"name":"x"}}',
  'Default/History': incompressibleBytes(2000),
  'Default/Local Storage/leveldb/000003.log': incompressibleBytes(500),
  'Default/IndexedDB/http_127.0.0.1_80.indexeddb.leveldb/000001.log': incompressibleBytes(700),
  'Default/Service Worker/Database/000001.log': incompressibleBytes(100),
};

const CACHES_AND_RUNTIME = {
  'Default/Cache/Cache_Data/data_0': incompressibleBytes(900),
  'Default/Code Cache/js/index': 'x',
  'Default/Service Worker/CacheStorage/abc/index': 'x',
  'Default/Service Worker/ScriptCache/index': 'x',
  'GPUCache/data_1': 'x',
  'Default/DawnWebGPUCache/index': 'x',
  'Crashpad/settings.dat': 'x',
  'Downloads/report.pdf': 'x',
  DevToolsActivePort: '1234\n/devtools/browser/x',
  'chromium-stderr.log': 'noise',
  'BrowserMetrics-spare.pma': incompressibleBytes(100),
};

describe('profile state', () => {
  it('saves a profile’s folder and restores it into an empty folder elsewhere, without caches or links', async () => {
    const profileId = await newProfile();
    const source = folderOn('first', profileId);
    await writeFiles(source, { ...PROFILE_ITSELF, ...CACHES_AND_RUNTIME });
    const outside = path.join(temp.path, 'outside');
    await writeFiles(outside, { secret: 'not the profile’s' });
    await symlink('host-1234', path.join(source, 'SingletonLock'));
    await symlink(path.join(outside, 'secret'), path.join(source, 'Default', 'linked-file'));
    await symlink(outside, path.join(source, 'Default', 'linked-folder'));

    await sync().save(profileId, source, null);
    expect(await readFile(path.join(source, HELD_VERSION_FILE), 'utf8')).toBe('1');
    expect(await storedVersion(profileId)).toBe(1);

    const target = folderOn('second', profileId);
    await sync().restore(profileId, target);
    expect(await filesIn(target)).toEqual(asListed({ ...PROFILE_ITSELF, [HELD_VERSION_FILE]: '1' }));
    expect(openToOthers(target)).toEqual([]);
    expect(logs.find((line) => line.msg === 'profile state restored')).toMatchObject({
      profile_id: profileId,
      version: 1,
      files: Object.keys(PROFILE_ITSELF).length,
    });
  });

  it('restores only a newer state, and never saves over a newer one a folder missed', async () => {
    const profileId = await newProfile();
    const [first, second, stale] = ['first', 'second', 'stale'].map((machine) =>
      folderOn(machine, profileId),
    );
    await writeFiles(first as string, { 'Default/Cookies': 'one' });
    await sync().save(profileId, first as string, null);
    await sync().restore(profileId, second as string);
    await writeFiles(second as string, { 'Default/Cookies': 'two' });
    await sync().restore(profileId, second as string);
    expect(await readFile(path.join(second as string, 'Default/Cookies'), 'utf8')).toBe('two');

    await sync().save(profileId, second as string, null);
    await sync().restore(profileId, first as string);
    expect(await readFile(path.join(first as string, 'Default/Cookies'), 'utf8')).toBe('two');
    expect(await readFile(path.join(first as string, HELD_VERSION_FILE), 'utf8')).toBe('2');

    await writeFiles(stale as string, { 'Default/Cookies': 'old', [HELD_VERSION_FILE]: '1' });
    await sync().save(profileId, stale as string, null);
    expect(await storedVersion(profileId)).toBe(2);
    expect(logs.at(-1)).toMatchObject({ level: 'warn', profile_id: profileId, held_version: 1 });
  });

  it('refuses the save of a holder whose lease was taken over, keeping the newer holder’s state', async () => {
    const profileId = await newProfile();
    const [stale, current] = ['stale', 'current'].map((machine) => folderOn(machine, profileId));
    const first = await takeLease(db, lease(profileId, 'key_eve', 'nod_one'));
    const second = await takeLease(db, lease(profileId, 'key_bob', 'nod_two'));
    await writeFiles(stale as string, { 'Default/Cookies': 'from the stale holder' });
    await sync().save(profileId, stale as string, first);
    expect(await storedVersion(profileId)).toBeNull();
    expect(logs.at(-1)).toMatchObject({ level: 'warn', profile_id: profileId, lease_generation: first });

    await writeFiles(current as string, { 'Default/Cookies': 'from the holder' });
    await sync().save(profileId, current as string, second);
    await sync().save(profileId, stale as string, first);
    const restored = folderOn('third', profileId);
    await sync().restore(profileId, restored);
    expect(await readFile(path.join(restored, 'Default/Cookies'), 'utf8')).toBe('from the holder');
  });

  it('keeps the last five saved states', async () => {
    const profileId = await newProfile();
    const folder = folderOn('first', profileId);
    for (let save = 1; save <= 7; save++) {
      await writeFiles(folder, { 'Default/Cookies': `save ${save}` });
      await sync().save(profileId, folder, null);
    }
    expect((await listProfileVersions(db, profileId)).map((row) => row.version)).toEqual([7, 6, 5, 4, 3]);
  });

  it('leaves the largest optional parts out over the limit, and saves nothing when the rest is over it', async () => {
    const profileId = await newProfile();
    const folder = folderOn('first', profileId);
    await writeFiles(folder, {
      'Default/Cookies': incompressibleBytes(1000),
      'Default/IndexedDB/big.leveldb/000001.log': incompressibleBytes(200_000),
      'Default/File System/000/p/00/00000000': incompressibleBytes(100_000),
    });
    await sync(150_000).save(profileId, folder, null);
    expect(logs.at(-1)).toMatchObject({ msg: 'profile state saved', left_out: ['Default/IndexedDB'] });
    const restored = folderOn('second', profileId);
    await sync(150_000).restore(profileId, restored);
    expect(Object.keys(await filesIn(restored)).sort()).toEqual([
      'Default/Cookies',
      'Default/File System/000/p/00/00000000',
      HELD_VERSION_FILE,
    ]);

    await sync(500).save(profileId, folder, null);
    expect(logs.at(-1)).toMatchObject({ level: 'warn', profile_id: profileId, max_bytes: 500 });
    expect(await storedVersion(profileId)).toBe(1);
  });

  it('refuses an archive that would write outside the profile’s folder, writing nothing', async () => {
    const profileId = await newProfile();
    const folder = folderOn('first', profileId);
    await writeFiles(folder, { 'Default/Cookies': 'mine' });
    await sync().save(profileId, folder, null);
    const absolute = path.join(temp.path, 'absolute-target');
    const hostile = [
      [{ path: '../escaped', bytes: 'pwned' }],
      [{ path: 'Default/../../../escaped', bytes: 'pwned' }],
      [{ path: absolute, bytes: 'pwned' }],
      [
        { path: 'Default/Cookies', bytes: 'a' },
        { path: 'Default/Cookies', bytes: 'b' },
      ],
    ];
    for (const [index, files] of hostile.entries()) {
      await db.query('update profile_states set version = $2, archive = $3 where profile_id = $1', [
        profileId,
        10 + index,
        craftArchive(files),
      ]);
      const refused = await sync()
        .restore(profileId, folder)
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(BrowserLaunchError);
      expect((refused as Error).message).toMatch(
        /^The profile's saved browser data \(version \d+\) was not restored/,
      );
    }
    expect(existsSync(path.join(temp.path, 'first', 'escaped'))).toBe(false);
    expect(existsSync(path.join(temp.path, 'escaped'))).toBe(false);
    expect(existsSync(absolute)).toBe(false);
    expect(await filesIn(folder)).toEqual(asListed({ 'Default/Cookies': 'mine', [HELD_VERSION_FILE]: '1' }));
    expect(await readdir(path.dirname(folder))).not.toContainEqual(expect.stringContaining('restoring'));

    await db.query('update profile_states set version = 20, archive = $2 where profile_id = $1', [
      profileId,
      gzipSync(Buffer.alloc(4 * 2 ** 20)),
    ]);
    await expect(sync().restore(profileId, folder)).rejects.toThrow(/does not unpack within/);
  });

  it('never writes through a symbolic link the folder holds', async () => {
    const profileId = await newProfile();
    const saved = folderOn('first', profileId);
    await writeFiles(saved, { 'Default/Cookies': 'restored' });
    await sync().save(profileId, saved, null);
    const linked = folderOn('second', profileId);
    const elsewhere = path.join(temp.path, 'elsewhere');
    await mkdir(elsewhere, { recursive: true });
    await mkdir(linked, { recursive: true });
    await symlink(elsewhere, path.join(linked, 'Default'));
    await sync().restore(profileId, linked);
    expect(await readdir(elsewhere)).toEqual([]);
    expect(await readFile(path.join(linked, 'Default/Cookies'), 'utf8')).toBe('restored');
  });

  it('never packs a file through a folder that became a symbolic link after it was listed', async () => {
    const root = path.join(temp.path, 'swapped', 'profile');
    await writeFiles(root, { 'Default/Cookies': 'mine', 'Default/Local Storage/leveldb/000003.log': 'mine' });
    const listed = (await profileFiles(root)).map((file) => file.path);
    expect(listed).toContain('Default/Local Storage/leveldb/000003.log');
    // The folder is swapped for a link to one outside, holding a secret under the same name.
    const outside = path.join(temp.path, 'swapped', 'outside');
    await writeFiles(outside, { 'leveldb/000003.log': 'the host’s secret' });
    await rm(path.join(root, 'Default', 'Local Storage'), { recursive: true });
    await symlink(outside, path.join(root, 'Default', 'Local Storage'));

    const packed = await packFiles(root, listed, 2 ** 20).catch((error: unknown) => error);
    expect(packed).toBeInstanceOf(ProfileArchiveError);
    expect((packed as Error).message).toBe(
      "Default/Local Storage/leveldb/000003.log leads outside the profile's folder",
    );
  });

  it('deletes a profile’s stored state with the profile, and with its account', async () => {
    const [kept, deleted] = [await newProfile(), await newProfile()];
    for (const profileId of [kept, deleted]) {
      await writeFiles(folderOn('first', profileId), { 'Default/Cookies': 'c' });
      await sync().save(profileId, folderOn('first', profileId), null);
    }
    expect(await deleteIdleProfile(db, accountId, deleted)).toBe('deleted');
    expect(await storedVersion(deleted)).toBeNull();
    expect(await storedVersion(kept)).toBe(1);
    await deleteAccountRow(db, accountId);
    expect(await db.query('select profile_id from profile_states')).toEqual([]);
  });
});

/** An archive in the format of server/sessions/profile-archive.ts, its paths written as given. */
function craftArchive(files: { path: string; bytes: string }[]): Buffer {
  const records = files.flatMap((file) => {
    const name = Buffer.from(file.path);
    const header = Buffer.alloc(6 + name.length);
    header.writeUInt16BE(name.length);
    name.copy(header, 2);
    header.writeUInt32BE(Buffer.byteLength(file.bytes), 2 + name.length);
    return [header, Buffer.from(file.bytes)];
  });
  return gzipSync(Buffer.concat([Buffer.from('PPS1'), ...records]));
}
