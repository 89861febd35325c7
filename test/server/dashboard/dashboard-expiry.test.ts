// Sign-ins and keys expire: checked on the store with a clock the test moves, since no test waits 12 hours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/driver';
import { createKeyOfAccount } from '../../../server/store/account-keys';
import { findAccountByKey } from '../../../server/store/accounts';
import { createEmailAccount } from '../../../server/store/dashboard-accounts';
import { findSignIn, SIGN_IN_LIFETIME_MS, startSignIn } from '../../../server/store/sign-ins';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

let scratch: ScratchDatabase;
let db: Database;
let now = new Date('2026-01-01T00:00:00Z');
const clock = { now: () => now };
const later = (ms: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + ms);

beforeAll(async () => {
  scratch = await openScratchDatabase('expiry');
  db = scratch.db;
});
afterAll(() => scratch?.close());

describe('expiry', () => {
  it('ends a dashboard sign-in after its lifetime', async () => {
    const account = await createEmailAccount(db, clock, 'expiry@example.com', 'scrypt$unused');
    if (!account) throw new Error('the account was not created');
    const { token, expiresAt } = await startSignIn(db, clock, account.id);
    expect(expiresAt).toEqual(later(SIGN_IN_LIFETIME_MS));
    now = later(SIGN_IN_LIFETIME_MS - 1000);
    expect(await findSignIn(db, clock, token)).toBe(account.id);
    now = later(SIGN_IN_LIFETIME_MS);
    expect(await findSignIn(db, clock, token)).toBeNull();
  });

  it('refuses a key from its expiry on, as expired', async () => {
    now = later(0);
    const account = await createEmailAccount(db, clock, 'keys@example.com', 'scrypt$unused');
    if (!account) throw new Error('the account was not created');
    const { key } = await createKeyOfAccount(db, clock, account.id, {
      name: 'short-lived',
      expiresInDays: 1,
    });
    const day = 86_400_000;
    expect(await findAccountByKey(db, key, later(day - 1000))).toMatchObject({ account: { id: account.id } });
    expect(await findAccountByKey(db, key, later(day))).toEqual({ failure: 'expired' });
  });
});
