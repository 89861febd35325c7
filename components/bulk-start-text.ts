import type { BulkResult } from '../lib/api/schemas/bulk';
import { t } from '../lib/i18n';

/** A bulk start's outcome: "Starting 100: 8 now, 92 waiting for room." (the failed are named apart). */
export function startingText(result: BulkResult): string {
  const waiting = result.waiting ?? 0;
  return t('bulkStarting', result.succeeded, result.succeeded - waiting, waiting);
}
