import type { BulkActionName } from '../lib/api/bulk-limits';
import type { QuotaSnapshot } from '../lib/api/rate-limit';
import type { BulkResult } from '../lib/api/schemas/bulk';
import { t } from '../lib/i18n';
import { type BulkAction, numberFor, roomFor, type Selected, startOutgrowsRoom } from './bulk-rules';
import { bulkCostText } from './quota';

/** Failures named one by one in the outcome; the rest are counted. */
const NAMED_FAILURES = 10;

/** A bulk start's outcome: "Starting 100: 8 now, 92 waiting for room." (the failed are named apart). */
export function startingText(result: BulkResult): string {
  const waiting = result.waiting ?? 0;
  return t('bulkStarting', result.succeeded, result.succeeded - waiting, waiting);
}

/** What a bulk action did: how many it did, then each failure by the profile's name with the service's sentence. */
export function outcomeText(action: BulkActionName, result: BulkResult): string {
  const failed = result.items.filter((item) => !item.ok);
  const lines = failed
    .slice(0, NAMED_FAILURES)
    .map(({ id, name, problem }) => `${name ?? id}: ${problem?.detail}`);
  if (failed.length > NAMED_FAILURES) lines.push(t('bulkMoreFailed', failed.length - NAMED_FAILURES));
  const done = result.batch_id
    ? t('bulkDone_batch', result.succeeded, result.selected)
    : action === 'start'
      ? startingText(result)
      : t(`bulkDone_${action}` as 'bulkDone_stop', result.succeeded, result.selected);
  return [done, ...lines].join('\n');
}

/** An action's question: what will happen, what waits for room, and what it spends of the hour's requests. */
export function questionText(selected: Selected, action: BulkAction, seen: QuotaSnapshot | null | undefined) {
  const { limits, running } = selected;
  const number = numberFor(selected, action);
  const cap =
    action === 'start' && startOutgrowsRoom(selected) && limits
      ? ` ${t('bulkOverSessions', limits.name, limits.sessionLimit, running, roomFor(selected))}`
      : '';
  return `${t(`bulkQuestion_${action}`, number)}${cap} ${bulkCostText(seen, number)}`;
}
