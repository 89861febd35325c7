import { ProblemError } from '../http/problem';
import { createKeyOfMember, listKeysOfAccount, revokeKeyOfAccount } from '../store/account-keys';
import type { DashboardHandlers } from './route';

/** The signed-in account's API keys: list, create (the key shown in this answer only), revoke. */
export const keyHandlers: DashboardHandlers<'listKeys' | 'createKey' | 'revokeKey'> = {
  async listKeys(_c, { account }, { db }) {
    return { data: await listKeysOfAccount(db, account.id) };
  },

  async createKey(_c, { account, body }, { db, clock }) {
    return createKeyOfMember(
      db,
      clock,
      { accountId: account.id, memberId: account.member.id },
      {
        name: body.name,
        expiresInDays: body.expires_in_days ?? null,
      },
    );
  },

  async revokeKey(_c, { account, params }, { db, clock }) {
    const revoked = await revokeKeyOfAccount(db, clock, account.id, params.id);
    if (!revoked)
      throw new ProblemError({ status: 404, code: 'not_found', detail: 'There is no key with this id.' });
    return revoked;
  },
};
