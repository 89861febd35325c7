import { ApiError } from '../../lib/api/errors';
import { parseProxyLine } from '../../lib/api/proxy-url';
import { t } from '../../lib/i18n';
import { cachedProxies } from '../../lib/storage';
import { requireApi } from './connection';
import { putFirst } from './lists';

/** Creates a proxy for each line of a pasted list (blank lines skipped), named host:port; a sentence per line. */
export async function createPastedProxies(text: string): Promise<string[]> {
  const api = await requireApi();
  const report: string[] = [];
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    if (!line.trim()) continue;
    const parts = parseProxyLine(line);
    if ('error' in parts) {
      report.push(t('pastedLineRefused', index + 1, parts.error));
      continue;
    }
    const name = `${parts.host}:${parts.port}`;
    try {
      await putFirst(cachedProxies, api.createProxy({ name, ...parts }));
      report.push(t('pastedLineAdded', index + 1, name));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      report.push(t('pastedLineRefused', index + 1, error.userMessage));
    }
  }
  return report;
}
