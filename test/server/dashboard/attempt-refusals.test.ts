import { expect, it } from 'vitest';
import { AttemptLimits } from '../../../server/dashboard/attempts';
import type { Queryable } from '../../../server/db/driver';

/* Guesses past the limit (a flood of wrong sign-in links) are refused from memory until their wait is over: the
 * database counts the first refusal only. */

it('asks the database once for a refused address and email until the wait is over', async () => {
  const asked: unknown[][] = [];
  const db: Queryable = {
    async query<T>(_sql: string, params: readonly unknown[] = []) {
      asked.push([...params]);
      return [{ attempt_id: null, wait_ms: '5000' }] as T[];
    },
    exec: async () => {},
  };
  const limits = new AttemptLimits(db);
  expect(await limits.attempt('192.0.2.1', 'link', 1_000)).toEqual({ waitSeconds: 5 });
  for (let n = 0; n < 100; n++)
    expect(await new AttemptLimits(db).attempt('192.0.2.1', 'LINK', 2_000 + n)).toEqual({ waitSeconds: 4 });
  expect(asked).toHaveLength(1);
  await limits.attempt('192.0.2.2', 'link', 2_000);
  expect(asked).toHaveLength(2);
  await limits.attempt('192.0.2.1', 'link', 6_000);
  expect(asked).toHaveLength(3);
});
