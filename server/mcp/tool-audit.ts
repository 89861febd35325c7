import type { EndpointName } from '../../lib/api/endpoints';
import { recordAuditAfter } from '../audit/record-audit';
import { AUDITED, type AuditedRequest } from '../http/audited-endpoints';
import type { AppDeps } from '../http/deps';
import type { AccountOfKey } from '../store/accounts';

/**
 * Records a tool's act in the audit log as the endpoint it does the same as records its call (audit-call.ts), by
 * the key's member: the profile the tool names stands for the path's, its `changes` for the body, and its answer
 * for the endpoint's. `via: "mcp"` says which door it came through.
 */
export async function auditTool(
  ctx: { deps: Pick<AppDeps, 'events' | 'clock'>; account: AccountOfKey },
  spec: { acts: EndpointName; audited?: false },
  args: unknown,
  answer: object,
): Promise<void> {
  const act = AUDITED[spec.acts];
  if (!act || spec.audited === false) return;
  const input = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  const request: AuditedRequest = {
    params: typeof input.profile_id === 'string' ? { id: input.profile_id } : {},
    body: input.changes ?? input,
    query: input,
    answer: 'structured' in answer ? answer.structured : null,
  };
  await recordAuditAfter(ctx.deps.events, ctx.deps.clock, {
    accountId: ctx.account.id,
    action: act.action,
    actor: ctx.account,
    profileId: act.profileId(request),
    detail: { ...act.detail?.(request), via: 'mcp' },
  });
}
