import type { Context } from 'hono';
import type { EndpointName } from '../../lib/api/endpoints';
import { type AuditEntry, recordAuditAfter } from '../audit/record-audit';
import { AUDITED, type AuditedRequest } from './audited-endpoints';
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
  if (!AUDITED[name] || reply.status >= 300) return;
  const account = c.get('account');
  await recordAct(deps, account.id, account, name, { ...input, answer: await answerOf(c, reply) });
}

/**
 * Records an act done as an endpoint of the API does it (the dashboard's pages do some), by `actor`, as the
 * table of audited endpoints says.
 */
export async function recordAct(
  deps: Pick<AppDeps, 'events' | 'clock'>,
  accountId: string,
  actor: AuditEntry['actor'],
  name: EndpointName,
  request: AuditedRequest,
): Promise<void> {
  const act = AUDITED[name];
  if (!act) return;
  await recordAuditAfter(deps.events, deps.clock, {
    accountId,
    action: act.action,
    actor,
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
