import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../server/core/clock';
import type { Database, Queryable } from '../../../server/db/driver';
import { generateIdentity } from '../../../server/identity/generate';
import { listProfilePage } from '../../../server/profiles/profile-list';
import { createAccountWithKey } from '../../../server/store/accounts';
import { updateProfile } from '../../../server/store/profile-changes';
import { insertProfile, listProfiles, type ProfileListOptions } from '../../../server/store/profiles';
import { insertProxy, replaceProxy } from '../../../server/store/proxies';
import { everything } from '../../../server/store/scope';
import { insertStartingSession } from '../../../server/store/sessions';
import { storeDatabases } from '../../support/store-databases';

/* The list's page built from profiles kept between requests: always the list read afresh, to the byte. */

const databases = storeDatabases('profile-list');

let db: Database;

const page = (options: Partial<ProfileListOptions> = {}) => ({ limit: 50, after: null, ...options });

/** The page as the route answers it, and the list read whole, as JSON text. */
async function bothAnswers(queryable: Queryable, accountId: string, options: ProfileListOptions) {
  return {
    kept: JSON.stringify(await listProfilePage(queryable, everything(accountId), options)),
    fresh: JSON.stringify(await listProfiles(db, everything(accountId), options)),
  };
}

/** An account with `count` profiles: own proxies, a saved proxy, tags, notes, identities. */
async function accountWithProfiles(count: number) {
  const accountId = (await createAccountWithKey(db, systemClock, { plan: 'premium' })).account_id;
  const saved = await insertProxy(db, systemClock, accountId, {
    name: 'saved',
    scheme: 'socks5',
    host: 'saved.example',
    port: 1080,
    username: 'ü "user"',
    password: 'secret',
  });
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const profile = await insertProfile(db, systemClock, accountId, {
      name: `Profile ${index} "quoted" \u2028 ✓`,
      tags: [`batch-${index % 2}`],
      notes: index === 0 ? 'line\nbreak\u0001' : '',
      proxy: index % 3 === 0 ? 'http://user:pass@proxy.example:8080' : undefined,
      proxy_id: index % 3 === 1 ? saved.id : undefined,
      fingerprint: { language: 'de-DE', screen: { width: 1280, height: 800 } },
      identity: index === 2 ? undefined : generateIdentity(),
    } as never);
    ids.push(profile.id);
  }
  return { accountId, ids, saved };
}

/** The database, counting its statements and able to run something between the first and the second. */
function watched(between?: () => Promise<void>) {
  const seen = { statements: 0 };
  const queryable: Queryable = {
    async query(sql, params) {
      const rows = await db.query(sql, params);
      seen.statements += 1;
      if (seen.statements === 1) await between?.();
      return rows as never;
    },
    exec: (sql) => db.exec(sql),
  };
  return { queryable, seen };
}

describe.each(databases)('a page of profiles kept between requests, on $name', ({ open }) => {
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await open());
  });
  afterAll(() => close?.());

  it('is the list read whole, on every page, filtered or not, first read or kept', async () => {
    const { accountId } = await accountWithProfiles(7);
    const first = await listProfiles(db, everything(accountId), page({ limit: 3 }));
    const cursorSeq = Number(
      Buffer.from(first.next_cursor ?? '', 'base64url')
        .toString()
        .slice(4),
    );
    for (const options of [
      page(),
      page({ limit: 3 }),
      page({ limit: 3, after: cursorSeq }),
      page({ limit: 7 }),
      page({ tag: 'batch-1' }),
      page({ q: 'profile 4' }),
      page({ status: 'idle', limit: 2 }),
      page({ status: 'running' }),
    ]) {
      for (let read = 0; read < 2; read++) {
        const { kept, fresh } = await bothAnswers(db, accountId, options);
        expect(kept).toBe(fresh);
      }
    }
  });

  it('reads no profile again while its revision is unchanged', async () => {
    const { accountId } = await accountWithProfiles(4);
    const { queryable, seen } = watched();
    await listProfilePage(queryable, everything(accountId), page());
    expect(seen.statements).toBe(2);
    await listProfilePage(queryable, everything(accountId), page());
    expect(seen.statements).toBe(3);
  });

  it('shows at once a change of the profile, of its saved proxy and of its live session', async () => {
    const { accountId, ids, saved } = await accountWithProfiles(3);
    await listProfilePage(db, everything(accountId), page());
    const [own, usingSaved, third] = ids as [string, string, string];
    await updateProfile(db, systemClock, accountId, own, { name: 'Renamed', tags: ['new'] });
    await replaceProxy(db, systemClock, accountId, saved.id, {
      name: 'saved',
      scheme: 'http',
      host: 'moved.example',
      port: 3128,
    });
    await insertStartingSession(db, systemClock, {
      accountId,
      holder: { id: 'key_test', name: 'Tester' },
      leaseTtlMs: 30_000,
      profileId: third,
      headless: true,
      cap: 5,
      nodeId: 'node-test',
    });
    const { kept, fresh } = await bothAnswers(db, accountId, page());
    expect(kept).toBe(fresh);
    const profiles = JSON.parse(kept).data as { id: string; name: string; proxy: string; status: string }[];
    expect(profiles.find((profile) => profile.id === own)?.name).toBe('Renamed');
    expect(profiles.find((profile) => profile.id === usingSaved)?.proxy).toBe('http://moved.example:3128');
    expect(profiles.find((profile) => profile.id === third)?.status).toBe('running');
  });

  it('reads the page whole again when a profile changes or goes between its two reads', async () => {
    const { accountId, ids } = await accountWithProfiles(4);
    const [gone, renamed] = ids as [string, string];
    const { queryable } = watched(async () => {
      await db.query('delete from profiles where id = $1', [gone]);
      await updateProfile(db, systemClock, accountId, renamed, { name: 'Renamed meanwhile' });
    });
    const { kept, fresh } = await bothAnswers(queryable, accountId, page());
    expect(kept).toBe(fresh);
    expect(kept).not.toContain(gone);
    expect(kept).toContain('Renamed meanwhile');
  });
});
