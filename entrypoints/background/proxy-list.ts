import type { ProxyReplaceResult } from '../../lib/api/schemas/proxy-fleet';
import { addToTally, type PastedLine, type PasteTally, pasteSummary } from '../../lib/proxy-paste';
import { requireApi } from './connection';

/**
 * Saves the proxies of a part of a pasted list in one request (a line already saved is that proxy, not a second)
 * and answers the paste's tally with this part, and its summary. The event stream brings the new proxies into the
 * cached list.
 */
export async function pasteProxyLines(
  lines: PastedLine[],
  tally: PasteTally,
): Promise<{ tally: PasteTally; summary: string }> {
  const answer = await (await requireApi()).pasteProxies(lines.map(({ text }) => text));
  const next = addToTally(tally, lines, answer);
  return { tally: next, summary: pasteSummary(next) };
}

/**
 * Replaces proxies on every profile that uses them, each by the proxy of its pasted line (saved now, or the saved
 * one that says the same). A line that is no proxy stops it before any profile changes, with the service's reason.
 */
export async function replaceWithLines(
  replacements: { from: string; line: string }[],
): Promise<ProxyReplaceResult> {
  const api = await requireApi();
  const pasted = await api.pasteProxies(replacements.map(({ line }) => line));
  // The service's sentence says why ("Not a proxy: must be host:port, …"); the preview showed whose line it is.
  const refused = pasted.items.find((item) => !item.ok);
  if (refused) throw new Error(refused.problem?.detail);
  return api.replaceProxies({
    replacements: replacements.map(({ from }, index) => ({ from, to: pasted.items[index]?.id as string })),
  });
}
