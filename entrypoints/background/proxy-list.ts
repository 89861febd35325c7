import type { ProxyPasteResult } from '../../lib/api/schemas/proxy-paste';
import { requireApi } from './connection';

/**
 * Saves the proxies of a part of a pasted list in one request; a line already saved is that proxy, not a second.
 * The event stream brings the new ones into the cached list.
 */
export async function pasteProxyLines(lines: string[]): Promise<ProxyPasteResult> {
  return (await requireApi()).pasteProxies(lines);
}
