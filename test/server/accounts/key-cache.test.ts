import { describe, expect, it } from 'vitest';
import { KeyCache } from '../../../server/accounts/key-cache';
import type { Database, ListenHandlers } from '../../../server/db/driver';
import type { AccountOfKey, KeyLookup } from '../../../server/store/accounts';

/* The cache alone, with a database that only listens: which lookups reach the database, and when it forgets. */

const account: AccountOfKey = {
  id: 'acc_1',
  name: 'one',
  plan: 'free',
  created_at: new Date(0),
  key_id: 'key_1',
  key_prefix: 'pp_live_abcd',
  member: { id: 'mem_1', name: 'one' },
  role: 'owner',
  scope: null,
};
const live = { account, expiresAt: null };
const now = new Date(1_000_000);

function listeningDatabase() {
  let handlers: ListenHandlers | null = null;
  const db = {
    listen: async (_channel: string, given: ListenHandlers) => {
      handlers = given;
      return async () => {};
    },
  } as unknown as Database;
  return { db, heard: () => handlers as unknown as ListenHandlers };
}

function counting(found: KeyLookup) {
  const find = async () => {
    find.calls += 1;
    return found;
  };
  find.calls = 0;
  return find;
}

describe('KeyCache', () => {
  it('asks the database once per key while nothing changes, and again after any change', async () => {
    const { db, heard } = listeningDatabase();
    const cache = new KeyCache();
    await cache.listen(db);
    const find = counting(live);
    for (let i = 0; i < 3; i++) expect(await cache.lookUp('h1', now, find)).toEqual(live);
    expect(find.calls).toBe(1);
    heard().onNotify('');
    await cache.lookUp('h1', now, find);
    expect(find.calls).toBe(2);
  });

  it('answers a cached key as expired once its expiry has passed, though nothing changed', async () => {
    const { db } = listeningDatabase();
    const cache = new KeyCache();
    await cache.listen(db);
    const find = counting({ account, expiresAt: new Date(now.getTime() + 1000) });
    expect(await cache.lookUp('h1', now, find)).toMatchObject({ account });
    expect(await cache.lookUp('h1', new Date(now.getTime() + 999), find)).toMatchObject({ account });
    expect(await cache.lookUp('h1', new Date(now.getTime() + 1000), find)).toEqual({ failure: 'expired' });
    expect(find.calls).toBe(1);
  });

  it('never caches an unknown or revoked key', async () => {
    const { db } = listeningDatabase();
    const cache = new KeyCache();
    await cache.listen(db);
    const find = counting({ failure: 'revoked' });
    await cache.lookUp('h1', now, find);
    await cache.lookUp('h1', now, find);
    expect(find.calls).toBe(2);
  });

  it('caches nothing until it listens, nor while the listening connection is lost', async () => {
    const { db, heard } = listeningDatabase();
    const cache = new KeyCache();
    const find = counting(live);
    await cache.lookUp('h1', now, find);
    await cache.lookUp('h1', now, find);
    expect(find.calls).toBe(2);
    await cache.listen(db);
    await cache.lookUp('h1', now, find);
    heard().onLost?.();
    await cache.lookUp('h1', now, find);
    await cache.lookUp('h1', now, find);
    expect(find.calls).toBe(5);
    heard().onRestored?.();
    await cache.lookUp('h1', now, find);
    await cache.lookUp('h1', now, find);
    expect(find.calls).toBe(6);
  });

  it('does not keep an answer read before a change that arrived while it was read', async () => {
    const { db, heard } = listeningDatabase();
    const cache = new KeyCache();
    await cache.listen(db);
    const find = counting(live);
    await cache.lookUp('h1', now, async () => {
      heard().onNotify('');
      return live;
    });
    await cache.lookUp('h1', now, find);
    expect(find.calls).toBe(1);
  });
});
