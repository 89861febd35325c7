import { expect, it } from 'vitest';
import { ATTEMPTS_PER_ADDRESS, AttemptLimits } from '../../../server/dashboard/attempts';
import type { Queryable } from '../../../server/db/driver';

/* Guesses past the limit (a flood of wrong sign-in links) are refused from memory until their wait is over: the
 * database counts the first refusal only, and says once whether the address as a whole is past its limit. */

/** A database that refuses every attempt for 5 s; `fromAddress` attempts are counted from each address. */
function refusingDatabase(fromAddress: number) {
  const asked: unknown[][] = [];
  const db: Queryable = {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      asked.push([...params]);
      if (sql.includes('count(*)')) return [{ count: fromAddress }] as T[];
      return [{ attempt_id: null, wait_ms: '5000' }] as T[];
    },
    exec: async () => {},
  };
  return { db, asked };
}

it('asks the database once for a refused address and email until the wait is over', async () => {
  const { db, asked } = refusingDatabase(1);
  const limits = new AttemptLimits(db);
  expect(await limits.attempt('192.0.2.1', 'link', 1_000)).toEqual({ waitSeconds: 5 });
  // The refusal, and whether the address as a whole is past its limit (it is not).
  expect(asked).toHaveLength(2);
  for (let n = 0; n < 100; n++)
    expect(await new AttemptLimits(db).attempt('192.0.2.1', 'LINK', 2_000 + n)).toEqual({ waitSeconds: 4 });
  expect(asked).toHaveLength(2);
  await limits.attempt('192.0.2.2', 'link', 2_000);
  expect(asked).toHaveLength(4);
  await limits.attempt('192.0.2.1', 'link', 6_000);
  expect(asked).toHaveLength(6);
});

it('refuses an address past its own limit from memory, whatever new email or link token it guesses with', async () => {
  const { db, asked } = refusingDatabase(ATTEMPTS_PER_ADDRESS);
  const limits = new AttemptLimits(db);
  expect(await limits.attempt('192.0.2.9', 'token-a', 1_000)).toEqual({ waitSeconds: 5 });
  for (const token of ['token-b', 'token-c', 'token-d'])
    expect(await limits.attempt('192.0.2.9', token, 2_000)).toEqual({ waitSeconds: 4 });
  expect(asked).toHaveLength(2);
  await limits.attempt('192.0.2.10', 'token-b', 2_000);
  expect(asked).toHaveLength(4);
});
