import { ApiError } from '../../lib/api/errors';
import { parseProxyUrl, proxyLabel } from '../../lib/api/proxy-url';
import { t } from '../../lib/i18n';
import { cachedProxies } from '../../lib/storage';
import { requireApi } from './connection';
import { putFirst } from './lists';

/** What became of a pasted list: a sentence per line, and the lines not added, to correct and send again. */
export interface PastedReport {
  report: string[];
  refused: string[];
}

/** A proxy as one address: a saved one and a pasted line that say the same are the same proxy. */
const sameness = (p: { scheme: string; host: string; port: number; username?: string | null }) =>
  `${p.scheme}://${p.username ?? ''}@${p.host.toLowerCase()}:${p.port}`;

/**
 * Creates a proxy for each line of a pasted list (blank lines skipped), named user@host:port. A line that repeats an
 * earlier one, or a proxy already saved, is refused without a request.
 */
export async function createPastedProxies(text: string): Promise<PastedReport> {
  const api = await requireApi();
  const saved = new Map(((await cachedProxies.getValue())?.data ?? []).map((p) => [sameness(p), p.name]));
  const seen = new Map<string, number>();
  const report: string[] = [];
  const refused: string[] = [];
  const refuse = (line: string, sentence: string) => {
    report.push(sentence);
    refused.push(line);
  };
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (!line.trim()) continue;
    const parts = parseProxyUrl(line);
    if ('error' in parts) {
      refuse(line, t('pastedLineRefused', index + 1, parts.error));
      continue;
    }
    const key = sameness(parts);
    const earlier = seen.get(key);
    const known = saved.get(key);
    if (earlier !== undefined) refuse(line, t('pastedLineRepeated', index + 1, earlier));
    else if (known !== undefined) refuse(line, t('pastedLineKnown', index + 1, known));
    if (earlier !== undefined || known !== undefined) continue;
    seen.set(key, index + 1);
    const name = proxyLabel(parts);
    try {
      await putFirst(cachedProxies, api.createProxy({ name, ...parts }));
      report.push(t('pastedLineAdded', index + 1, name));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      refuse(line, t('pastedLineRefused', index + 1, error.userMessage));
    }
  }
  return { report, refused };
}
