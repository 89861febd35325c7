import type { Batch } from '../../lib/api/schemas/automation';
import { t } from '../../lib/i18n';

/** "5 of 6 succeeded, 1 failed, 2 retried": a batch's runs counted, each profile by its latest run. */
export function summaryOf(batch: Batch): string {
  const parts = [t('batchSummary', batch.succeeded, batch.total)];
  if (batch.failed) parts.push(t('batchFailed', batch.failed));
  if (batch.cancelled) parts.push(t('batchCancelled', batch.cancelled));
  if (batch.retried) parts.push(t('batchRetried', batch.retried));
  if (batch.queued + batch.running) parts.push(t('batchPending', batch.queued + batch.running));
  return parts.join(', ');
}

/** "Should finish around 14:05:00", in the person's own time; null when there is no estimate. */
export function finishText(batch: Batch): string | null {
  const at = batch.estimated_finish_at;
  return at && t('batchEta', new Date(at).toLocaleTimeString());
}
