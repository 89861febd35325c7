import { describe, expect, it } from 'vitest';
import { KeyCache } from '../../server/accounts/key-cache';
import type { Database, ListenHandlers } from '../../server/db/driver';
import type { AccountOfKey, KeyLookup } from '../../server/store/accounts';

/* The cache alone, with a database that only listens: which lookups reach the database, and when it forgets. */

const account: AccountOfKey = {
  id: 'acc_1',
  name: 'one',
  plan: 'free',
  created_at: new Date(0),
  key_prefix: 'pp_live_abcd',
};

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
    const find = counting({ account });
    for (let i = 0; i < 3; i++) expect(await cache.lookUp('h1', find)).toEqual({ account });
    expect(find.calls).toBe(1);
    heard().onNotify('');
    await cache.lookUp('h1', find);
    expect(find.calls).toBe(2);
  });

  it('never caches an unknown or revoked key', async () => {
    const { db } = listeningDatabase();
    const cache = new KeyCache();
    await cache.listen(db);
    const find = counting({ failure: 'revoked' });
    await cache.lookUp('h1', find);
    await cache.lookUp('h1', find);
    expect(find.calls).toBe(2);
  });

  it('caches nothing until it listens, nor while the listening connection is lost', async () => {
    const { db, heard } = listeningDatabase();
    const cache = new KeyCache();
    const find = counting({ account });
    await cache.lookUp('h1', find);
    await cache.lookUp('h1', find);
    expect(find.calls).toBe(2);
    await cache.listen(db);
    await cache.lookUp('h1', find);
    heard().onLost?.();
    await cache.lookUp('h1', find);
    await cache.lookUp('h1', find);
    expect(find.calls).toBe(5);
    heard().onRestored?.();
    await cache.lookUp('h1', find);
    await cache.lookUp('h1', find);
    expect(find.calls).toBe(6);
  });

  it('does not keep an answer read before a change that arrived while it was read', async () => {
    const { db, heard } = listeningDatabase();
    const cache = new KeyCache();
    await cache.listen(db);
    const find = counting({ account });
    await cache.lookUp('h1', async () => {
      heard().onNotify('');
      return { account };
    });
    await cache.lookUp('h1', find);
    expect(find.calls).toBe(1);
  });
});
