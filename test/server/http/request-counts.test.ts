import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/driver';
import { createAccountWithKey } from '../../../server/store/accounts';
import { countRequest, requestsPerMinute } from '../../../server/store/request-counts';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

/* The hourly counts in the database, on a clock the test moves (the service passes its own clock's time in). */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
// 10:00:30: half a minute into a minute.
const t0 = Date.parse('2026-01-01T10:00:30Z');
const clock = { now: () => new Date(t0) };

let scratch: ScratchDatabase;
let db: Database;

beforeAll(async () => {
  scratch = await openScratchDatabase('counts');
  db = scratch.db;
});
afterAll(() => scratch?.close());

const newAccount = async () => (await createAccountWithKey(db, clock, { plan: 'free' })).account_id;

describe('the hourly request counts', () => {
  it('count up to the limit, and free the oldest minute’s requests all at once when it leaves the hour', async () => {
    const account = await newAccount();
    expect(await countRequest(db, account, t0, 3)).toEqual({
      allowed: true,
      used: 1,
      oldestLeavesAtMs: Date.parse('2026-01-01T11:00:00Z'),
    });
    expect(await countRequest(db, account, t0 + 10_000, 3)).toMatchObject({ allowed: true, used: 2 });
    expect(await countRequest(db, account, t0 + 5 * MINUTE, 3)).toMatchObject({ allowed: true, used: 3 });
    // Refused requests are not counted: they do not push the next free slot further away.
    for (let i = 0; i < 3; i++) {
      expect(await countRequest(db, account, t0 + 6 * MINUTE, 3)).toEqual({
        allowed: false,
        used: 3,
        oldestLeavesAtMs: Date.parse('2026-01-01T11:00:00Z'),
      });
    }
    // 10:59:59.999 still counts 10:00; at 11:00 that minute (two requests) has left the hour.
    expect(await countRequest(db, account, Date.parse('2026-01-01T10:59:59.999Z'), 3)).toMatchObject({
      allowed: false,
    });
    expect(await countRequest(db, account, Date.parse('2026-01-01T11:00:00Z'), 3)).toEqual({
      allowed: true,
      used: 2,
      oldestLeavesAtMs: Date.parse('2026-01-01T11:05:00Z'),
    });
    expect(await countRequest(db, account, t0 + HOUR, 3)).toMatchObject({ allowed: true, used: 3 });
    expect(await countRequest(db, account, t0 + HOUR, 3)).toMatchObject({ allowed: false, used: 3 });
  });

  it('keep each account apart, and only the last hour’s minutes', async () => {
    const [first, second] = [await newAccount(), await newAccount()];
    for (let i = 0; i < 4; i++) await countRequest(db, first, t0, 100);
    await countRequest(db, first, t0 + 59 * MINUTE, 100);
    await countRequest(db, second, t0 + 59 * MINUTE, 100);
    const rowsOf = async (account: string) =>
      db.query('select minute from request_counts where account_id = $1', [account]);
    expect(await rowsOf(first)).toHaveLength(2);
    await countRequest(db, first, t0 + 60 * MINUTE, 100);
    // The minute that left the hour was deleted by the request that saw it leave.
    expect(await rowsOf(first)).toHaveLength(2);
    expect(await countRequest(db, second, t0 + 60 * MINUTE, 100)).toMatchObject({ used: 2 });
  });

  it('are what the dashboard draws, the oldest minute first', async () => {
    const account = await newAccount();
    for (let i = 0; i < 3; i++) await countRequest(db, account, t0, 100);
    await countRequest(db, account, t0 + 30 * MINUTE, 100);
    const perMinute = await requestsPerMinute(db, account, t0 + 59 * MINUTE);
    expect(perMinute).toHaveLength(60);
    expect(perMinute[0]).toBe(3);
    expect(perMinute[30]).toBe(1);
    expect(perMinute.reduce((sum, count) => sum + count, 0)).toBe(4);
    expect((await requestsPerMinute(db, account, t0 + 60 * MINUTE)).reduce((sum, n) => sum + n, 0)).toBe(1);
  });

  it('go with their account', async () => {
    const account = await newAccount();
    await countRequest(db, account, t0, 100);
    await db.query('delete from accounts where id = $1', [account]);
    expect(await db.query('select 1 from request_counts where account_id = $1', [account])).toEqual([]);
  });
});
