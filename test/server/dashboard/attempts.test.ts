import { afterAll, beforeAll, expect, it } from 'vitest';
import { ATTEMPTS_PER_ADDRESS, AttemptLimits } from '../../../server/dashboard/attempts';
import type { Queryable } from '../../../server/db/driver';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

let scratch: ScratchDatabase;
beforeAll(async () => {
  scratch = await openScratchDatabase('attempts');
});
afterAll(() => scratch?.close());

it('refuses an address past its limit with no statement, whatever new email or link token it guesses with', async () => {
  let statements = 0;
  const counted: Queryable = {
    query: (sql, params) => {
      statements++;
      return scratch.db.query(sql, params);
    },
    exec: (sql) => scratch.db.exec(sql),
  };
  const limits = new AttemptLimits(counted);
  const now = Date.now();
  for (let index = 0; index < ATTEMPTS_PER_ADDRESS; index++)
    expect(await limits.attempt('192.0.2.9', `guess${index}@example.com`, now)).not.toHaveProperty(
      'waitSeconds',
    );
  expect(await limits.attempt('192.0.2.9', 'token-a', now)).toHaveProperty('waitSeconds');
  const before = statements;
  for (const token of ['token-b', 'token-c', 'token-d'])
    expect(await limits.attempt('192.0.2.9', token, now)).toHaveProperty('waitSeconds');
  expect(statements).toBe(before);
  // Another address is not refused.
  expect(await limits.attempt('192.0.2.10', 'token-b', now)).not.toHaveProperty('waitSeconds');
});
