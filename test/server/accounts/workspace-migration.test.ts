import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyCache } from '../../../server/accounts/key-cache';
import { hashApiKey } from '../../../server/core/api-keys';
import type { Database } from '../../../server/db/driver';
import { loadMigrations, migrate } from '../../../server/db/migrate';
import { openDatabase } from '../../../server/db/open';
import { findAccountByKey } from '../../../server/store/accounts';
import { findPasswordOfEmail } from '../../../server/store/dashboard-accounts';
import { findSignIn, hashToken } from '../../../server/store/sign-ins';

/* An account made before workspaces (migration 023) keeps working: its owner is its only member, its keys theirs. */

const KEY = `pp_live_oldk${'A'.repeat(28)}`;
const now = new Date('2026-01-01T00:00:00Z');
let dir: string;
let db: Database;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pp-workspace-migration-'));
  db = await openDatabase({ dataDir: dir });
  const migrations = await loadMigrations();
  await migrate(
    db,
    migrations.filter((m) => m.version < 23),
  );
  await db.query(
    `insert into accounts (id, name, plan, created_at, email, password_hash)
     values ('acc_OLD00000000000000000', 'Old Co', 'premium', $1, 'old@example.com', 'scrypt$old')`,
    [now],
  );
  await db.query(
    `insert into api_keys (id, account_id, name, prefix, hash, created_at)
     values ('key_OLD', 'acc_OLD00000000000000000', 'ci', $1, $2, $3)`,
    [KEY.slice(0, 12), hashApiKey(KEY), now],
  );
  await db.query(
    `insert into dashboard_sessions (token_hash, account_id, created_at, expires_at)
     values ($1, 'acc_OLD00000000000000000', $2, $3)`,
    [hashToken('cookie'), now, new Date(now.getTime() + 3_600_000)],
  );
  await migrate(db, migrations);
});
afterAll(async () => {
  await db?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('an account from before workspaces', () => {
  it('is a workspace whose owner holds its keys, sign-in and password', async () => {
    const found = await findAccountByKey(db, KEY, now);
    expect(found).toMatchObject({
      account: {
        id: 'acc_OLD00000000000000000',
        plan: 'premium',
        key_id: 'key_OLD',
        member: { id: 'mem_OLD00000000000000000', name: 'old@example.com' },
        role: 'owner',
        scope: null,
      },
    });
    expect(await findPasswordOfEmail(db, 'OLD@example.com')).toEqual({
      member_id: 'mem_OLD00000000000000000',
      password_hash: 'scrypt$old',
    });
    expect(await findSignIn(db, { now: () => now }, 'cookie')).toBe('mem_OLD00000000000000000');
  });

  it('forgets the cached actor of its keys when a member’s role or scope changes', async () => {
    const cache = new KeyCache();
    const stop = await cache.listen(db);
    const look = () => cache.lookUp(hashApiKey(KEY), now, () => findAccountByKey(db, KEY, now));
    expect(await look()).toMatchObject({ account: { role: 'owner' } });
    await db.query(
      `update members set role = 'viewer', scope = '{"tags": ["a"]}' where id = 'mem_OLD00000000000000000'`,
    );
    await expect
      .poll(async () => (await look()) as unknown)
      .toMatchObject({
        account: { role: 'viewer', scope: { tags: ['a'] } },
      });
    await db.query(`update members set removed_at = $1 where id = 'mem_OLD00000000000000000'`, [now]);
    await expect.poll(look).toEqual({ failure: 'revoked' });
    await stop();
  });
});
