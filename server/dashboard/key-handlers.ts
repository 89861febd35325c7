import { mayCall } from '../../lib/api/permissions';
import type { ApiKey } from '../../lib/api/schemas/workspace';
import { mustMay } from '../accounts/permit';
import { makeAgentKey } from '../accounts/workspace';
import { NotFound } from '../core/domain-errors';
import type { Queryable } from '../db/driver';
import { recordAct } from '../http/audit-call';
import { createKeyOfMember, extensionUsesOfAccount } from '../store/account-keys';
import type { DashboardAccount } from '../store/dashboard-accounts';
import { findWorkspaceKey, listWorkspaceKeys, revokeWorkspaceKey } from '../store/members';
import type { DashboardHandlers } from './route';

/** The workspace's keys as the Keys page shows them: whose, and when the extension last used each. */
async function asShown(db: Queryable, account: DashboardAccount, keys: ApiKey[]) {
  const uses = await extensionUsesOfAccount(db, account.id);
  return keys.map((key) => ({
    ...key,
    mine: key.member_id === account.member.id,
    extension_used_at: uses.get(key.id)?.toISOString() ?? null,
  }));
}

async function shownKey(db: Queryable, account: DashboardAccount, id: string) {
  const key = await findWorkspaceKey(db, account.id, id);
  if (!key) throw new NotFound('key');
  const [shown] = await asShown(db, account, [key]);
  return shown as NonNullable<typeof shown>;
}

/**
 * The keys: an owner or admin sees and revokes every key of the workspace and makes agents' keys with a role and
 * a scope; every member sees, makes and revokes their own (a key acting as them). The key is in the creation's
 * answer only. Each act is recorded in the audit log as the API records it.
 */
export const keyHandlers: DashboardHandlers<'listKeys' | 'createKey' | 'revokeKey'> = {
  async listKeys(_c, { account }, { db }) {
    const keys = await listWorkspaceKeys(db, account.id);
    const shown = mayCall(account.role, 'listKeys')
      ? keys
      : keys.filter((key) => key.member_id === account.member.id);
    return { data: await asShown(db, account, shown) };
  },

  async createKey(_c, { account, body }, deps) {
    const expiresInDays = body.expires_in_days ?? null;
    let made: { id: string; key: string };
    if (body.role === undefined) {
      const member = { accountId: account.id, memberId: account.member.id };
      made = await createKeyOfMember(deps.db, deps.clock, member, { name: body.name, expiresInDays });
    } else {
      mustMay(account.role, 'createKey');
      const { role, scope, name } = body;
      const options = {
        name,
        role,
        scope,
        ...(expiresInDays === null ? {} : { expires_in_days: expiresInDays }),
      };
      made = await makeAgentKey(deps, account, options);
    }
    const request = { params: {}, body: { name: body.name }, query: {}, answer: { id: made.id } };
    await recordAct(deps, account.id, account, 'createKey', request);
    return { ...(await shownKey(deps.db, account, made.id)), key: made.key };
  },

  async revokeKey(_c, { account, params }, deps) {
    const key = await shownKey(deps.db, account, params.id);
    if (!key.mine) mustMay(account.role, 'revokeKey');
    await revokeWorkspaceKey(deps.db, deps.clock, account.id, key.id);
    await recordAct(deps, account.id, account, 'revokeKey', { params, body: null, query: {}, answer: null });
    return shownKey(deps.db, account, key.id);
  },
};
