import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../server/core/clock';
import { createAccountWithKey } from '../../../server/store/accounts';
import { insertProfile } from '../../../server/store/profiles';
import { insertProxy, replaceProxy } from '../../../server/store/proxies';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

let scratch: ScratchDatabase;
beforeAll(async () => {
  scratch = await openScratchDatabase('proxies');
});
afterAll(() => scratch?.close());

describe('a saved proxy without a name', () => {
  it('is named user@host:port (never the password), so three logins on one host are three rows', async () => {
    const { db } = scratch;
    const accountId = (await createAccountWithKey(db, systemClock, { plan: 'premium' })).account_id;
    const login = (username: string | null) =>
      insertProxy(db, systemClock, accountId, {
        scheme: 'socks5h',
        host: 'Gate.Example',
        port: 1080,
        username,
        password: username && `${username}-secret`,
      });
    const names = (await Promise.all(['ann', 'bob', null].map(login))).map((proxy) => proxy.name);
    expect(names).toEqual(['ann@gate.example:1080', 'bob@gate.example:1080', 'gate.example:1080']);
    expect(JSON.stringify(names)).not.toContain('secret');

    const carol = await login('carol');
    const renamed = await replaceProxy(db, systemClock, accountId, carol.id, {
      scheme: 'http',
      host: 'other.example',
      port: 8080,
      username: 'dave',
    });
    expect(renamed).toMatchObject({ name: 'dave@other.example:8080', url: 'http://dave@other.example:8080' });
  });

  it('may be socks5h, as may a profile’s own proxy', async () => {
    const { db } = scratch;
    const accountId = (await createAccountWithKey(db, systemClock, { plan: 'premium' })).account_id;
    const profile = await insertProfile(db, systemClock, accountId, {
      name: 'Remote names',
      proxy: 'socks5h://ann:pw@10.0.0.1:1080',
    } as never);
    expect(profile.proxy).toBe('socks5h://ann@10.0.0.1:1080');
  });
});
