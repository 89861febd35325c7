import type { ProxyParts } from '../../lib/api/proxy-url';
import type { ProxyCheck, ProxyConfig } from '../../lib/api/schemas/proxies';
import type { Clock } from '../core/clock';
import { NotFound, ProxyInUse, Unavailable } from '../core/domain-errors';
import type { EgressPolicy } from '../core/egress-policy';
import type { Database, Queryable } from '../db/driver';
import { isForeignKeyViolation } from '../db/errors';
import type { Emit, EventLog } from '../events/event-log';
import { checkExit, proxyCheckAnswer } from '../identity/exit-place';
import {
  deleteProxy,
  findProxyRow,
  insertProxy,
  type ProxyFields,
  profilesUsingProxy,
  recordProxyCheck,
  replaceProxy,
} from '../store/proxies';
import { requireProxyRoom } from './proxy-reuse';

/** A proxy check gives up after this long, saying so. */
const PROXY_CHECK_TIMEOUT_MS = 10_000;

/** Saves a proxy of the account in `tx`, reported as `proxy.created`. */
export async function createOwnProxy(
  tx: Queryable,
  emit: Emit,
  clock: Clock,
  accountId: string,
  body: ProxyFields,
): Promise<ProxyConfig> {
  await requireProxyRoom(tx, accountId, 1);
  const proxy = await insertProxy(tx, clock, accountId, body);
  await emit(accountId, 'proxy.created', proxy);
  return proxy;
}

/** Replaces a saved proxy of the account, reported as `proxy.updated`. */
export async function replaceOwnProxy(
  { clock, events }: { clock: Clock; events: EventLog },
  accountId: string,
  id: string,
  body: ProxyFields,
): Promise<ProxyConfig> {
  const proxy = await events.writeWithEvents(async (tx, emit) => {
    const replaced = await replaceProxy(tx, clock, accountId, id, body);
    if (replaced) await emit(accountId, 'proxy.updated', replaced);
    return replaced;
  });
  if (!proxy) throw new NotFound('proxy');
  return proxy;
}

/** Deletes a saved proxy of the account that no profile points at. */
export async function deleteOwnProxy(
  { db, events }: { db: Database; events: EventLog },
  accountId: string,
  id: string,
): Promise<void> {
  const deleted = await events
    .writeWithEvents(async (tx, emit) => {
      const users = await profilesUsingProxy(tx, accountId, id);
      if (users.length > 0) throw new ProxyInUse(users);
      const gone = await deleteProxy(tx, accountId, id);
      if (gone) await emit(accountId, 'proxy.deleted', { id });
      return gone;
    })
    .catch(async (error: unknown) => {
      // A profile pointing at it was committed meanwhile (possible on PostgreSQL, not on PGlite).
      if (isForeignKeyViolation(error)) throw new ProxyInUse(await profilesUsingProxy(db, accountId, id));
      throw error;
    });
  if (!deleted) throw new NotFound('proxy');
}

/**
 * Tries a saved proxy of the account against the operator's check address, under the egress policy, and keeps the
 * answer as the proxy's last check.
 */
export async function checkOwnProxy(
  {
    db,
    clock,
    checkUrl,
    egress,
  }: { db: Database; clock: Clock; checkUrl: string | null; egress: EgressPolicy },
  accountId: string,
  id: string,
): Promise<ProxyCheck> {
  const proxy = await findProxyRow(db, accountId, id);
  if (!proxy) throw new NotFound('proxy');
  const answer = await tryProxy({ checkUrl: requireCheckUrl(checkUrl), egress }, proxy);
  await recordProxyCheck(db, clock, accountId, id, answer);
  return answer;
}

/** The operator's check address, or the sentence that proxy checks are off. */
export function requireCheckUrl(checkUrl: string | null): string {
  if (!checkUrl)
    throw new Unavailable(
      'proxy_check_off',
      'Proxy checks are turned off on this service: its operator has set no PROXY_CHECK_URL.',
    );
  return checkUrl;
}

/** Whether a proxy works, tried against the check address under the egress policy. */
export async function tryProxy(
  { checkUrl, egress }: { checkUrl: string; egress: EgressPolicy },
  { scheme, host, port, username, password }: ProxyParts,
): Promise<ProxyCheck> {
  const result = await checkExit({
    proxy: { scheme, host, port, username, password },
    checkUrl,
    policy: egress,
    timeoutMs: PROXY_CHECK_TIMEOUT_MS,
  });
  return proxyCheckAnswer(result);
}
