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
