import { type ProxyParts, parseProxyUrl } from '../../lib/api/proxy-url';
import type { PastedProxy, ProxyPasteResult } from '../../lib/api/schemas/proxy-paste';
import type { Clock } from '../core/clock';
import type { EventLog } from '../events/event-log';
import { type ReusedProxy, savedProxiesFor } from './proxy-reuse';

/**
 * Saves the proxies of pasted lines, in one transaction: a line that says the same as a saved proxy (or as an
 * earlier line) is that proxy, not a second one; a line that is no proxy is refused in its place. Beyond the plan's
 * cap nothing is saved.
 */
export async function pasteProxies(
  { clock, events }: { clock: Clock; events: EventLog },
  accountId: string,
  lines: string[],
): Promise<ProxyPasteResult> {
  const parsed = lines.map((line) => parseProxyUrl(line));
  const good = parsed.flatMap((parts, index) => ('error' in parts ? [] : [{ index, parts }]));
  const saved = await events.writeWithEvents(async (tx, _emit, emitAll) => {
    const found = await savedProxiesFor(
      tx,
      clock,
      accountId,
      good.map(({ parts }) => parts as ProxyParts),
    );
    await emitAll(accountId, 'proxy.created', found.created);
    return found.proxies;
  });
  const proxyAt = new Map(good.map(({ index }, at) => [index, saved[at] as ReusedProxy]));
  const items = parsed.map((parts, index): PastedProxy => {
    const proxy = proxyAt.get(index);
    if (proxy) return { ok: true, id: proxy.id, name: proxy.name, known: !proxy.created };
    const reason = 'error' in parts ? parts.error : 'not saved';
    return {
      ok: false,
      problem: { status: 422, code: 'validation_failed', detail: `Not a proxy: ${reason}.` },
    };
  });
  const added = saved.filter((proxy) => proxy.created).length;
  return { added, known: good.length - added, refused: lines.length - good.length, items };
}
