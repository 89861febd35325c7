import { Plan } from '../../lib/api/schemas/account';
import { z } from '../../lib/api/zod';
import type { Clock } from '../core/clock';
import type { Database } from '../db/driver';
import { createAccountWithKey, findAccountId, listKeys, revokeKey, setPlan } from '../store/accounts';
import { findOwnerOfAccount } from '../store/dashboard-accounts';
import { createSignInLink } from '../store/sign-in-links';

/** A keys command, as the CLI runs it directly or sends it to the running service. */
export const KeysCommand = z.discriminatedUnion('command', [
  z.strictObject({ command: z.literal('create'), plan: Plan, name: z.optional(z.string()) }),
  z.strictObject({ command: z.literal('list') }),
  z.strictObject({ command: z.literal('revoke'), prefix: z.string() }),
  z.strictObject({ command: z.literal('set-plan'), account: z.string(), plan: Plan }),
  z.strictObject({ command: z.literal('sign-in-link'), account: z.string() }),
]);
export type KeysCommand = z.infer<typeof KeysCommand>;

/** The address of a one-time sign-in link on the service at `base`: its token after the hash, never sent in a request. */
export const signInLinkUrl = (base: string, token: string) =>
  new URL(`/dashboard/#/sign-in/${token}`, base).href;

export async function runKeysCommand(db: Database, clock: Clock, command: KeysCommand): Promise<unknown> {
  switch (command.command) {
    case 'create':
      return createAccountWithKey(db, clock, { plan: command.plan, name: command.name });
    case 'list':
      return listKeys(db);
    case 'revoke':
      return { revoked: await revokeKey(db, clock, command.prefix) };
    case 'set-plan':
      return { account_id: await setPlan(db, command.account, command.plan) };
    case 'sign-in-link': {
      const accountId = await findAccountId(db, command.account);
      const memberId = accountId && (await findOwnerOfAccount(db, accountId));
      if (!accountId || !memberId) return { token: null };
      const { token, expiresAt } = await createSignInLink(db, clock, { accountId, memberId });
      return { token, expires_at: expiresAt.toISOString() };
    }
  }
}
