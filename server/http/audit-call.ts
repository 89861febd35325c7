import type { Context } from 'hono';
import type { EndpointName } from '../../lib/api/endpoints';
import { recordAuditAfter } from '../audit/record-audit';
import { AUDITED } from './audited-endpoints';
import type { AppDeps } from './deps';
import type { AppEnv } from './env';
import type { Answer } from './idempotency';

/** Records a successful call of an audited endpoint, by the key's member, once the act is done. */
export async function auditCall(
  c: Context<AppEnv>,
  name: EndpointName,
  input: { params: Record<string, string>; body: unknown; query: unknown },
  reply: Response | Answer,
  deps: Pick<AppDeps, 'events' | 'clock'>,
): Promise<void> {
  const act = AUDITED[name];
  if (!act || reply.status >= 300) return;
  const request = { ...input, answer: await answerOf(c, reply) };
  const account = c.get('account');
  await recordAuditAfter(deps.events, deps.clock, {
    accountId: account.id,
    action: act.action,
    actor: account,
    profileId: act.profileId(request),
    detail: act.detail?.(request) ?? {},
  });
}

/** The answer's JSON; not read for a GET (a cookie export: its path names the profile). */
async function answerOf(c: Context<AppEnv>, reply: Response | Answer): Promise<unknown> {
  if (!(reply instanceof Response)) return reply.body;
  if (c.req.method === 'GET' || !reply.headers.get('content-type')?.includes('json')) return null;
  return reply.clone().json();
}
