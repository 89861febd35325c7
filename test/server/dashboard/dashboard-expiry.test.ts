// Sign-ins and keys expire: checked on the store with a clock the test moves, since no test waits 12 hours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/driver';
import { createKeyOfMember } from '../../../server/store/account-keys';
import { findAccountByKey } from '../../../server/store/accounts';
import { createEmailAccount } from '../../../server/store/dashboard-accounts';
import {
  createSignInLink,
  deleteExpiredSignInLinks,
  SIGN_IN_LINK_LIFETIME_MS,
  spendSignInLink,
} from '../../../server/store/sign-in-links';
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
    const member = { accountId: account.id, memberId: account.member.id };
    const { token, expiresAt } = await startSignIn(db, clock, member);
    expect(expiresAt).toEqual(later(SIGN_IN_LIFETIME_MS));
    now = later(SIGN_IN_LIFETIME_MS - 1000);
    expect(await findSignIn(db, clock, token)).toBe(account.member.id);
    now = later(SIGN_IN_LIFETIME_MS);
    expect(await findSignIn(db, clock, token)).toBeNull();
  });

  it('spends a one-time sign-in link within its 15 minutes, and refuses it from then on', async () => {
    now = later(0);
    const account = await createEmailAccount(db, clock, 'link@example.com', 'scrypt$unused');
    if (!account) throw new Error('the account was not created');
    expect(SIGN_IN_LINK_LIFETIME_MS).toBe(15 * 60 * 1000);
    const member = { accountId: account.id, memberId: account.member.id };
    const early = await createSignInLink(db, clock, member);
    const late = await createSignInLink(db, clock, member);
    expect(late.expiresAt).toEqual(later(SIGN_IN_LINK_LIFETIME_MS));
    now = later(SIGN_IN_LINK_LIFETIME_MS - 1000);
    expect(await spendSignInLink(db, clock, early.token)).toBe(account.member.id);
    now = later(SIGN_IN_LINK_LIFETIME_MS);
    expect(await spendSignInLink(db, clock, late.token)).toBeNull();
    const stale = await createSignInLink(db, clock, member);
    now = later(2 * SIGN_IN_LINK_LIFETIME_MS);
    await deleteExpiredSignInLinks(db, clock);
    expect(await db.query('select 1 from sign_in_links where account_id = $1', [account.id])).toEqual([]);
    expect(await spendSignInLink(db, clock, stale.token)).toBeNull();
  });

  it('refuses a key from its expiry on, as expired', async () => {
    now = later(0);
    const account = await createEmailAccount(db, clock, 'keys@example.com', 'scrypt$unused');
    if (!account) throw new Error('the account was not created');
    const member = { accountId: account.id, memberId: account.member.id };
    const { key } = await createKeyOfMember(db, clock, member, {
      name: 'short-lived',
      expiresInDays: 1,
    });
    const day = 86_400_000;
    expect(await findAccountByKey(db, key, later(day - 1000))).toMatchObject({ account: { id: account.id } });
    expect(await findAccountByKey(db, key, later(day))).toEqual({ failure: 'expired' });
  });
});
