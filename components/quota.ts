import { bulkCost } from '../lib/api/bulk-limits';
import type { QuotaSnapshot } from '../lib/api/rate-limit';
import { t } from '../lib/i18n';

/** "72 of 100 requests left this hour", or that the plan has no limit. */
export function quotaText({ limit, remaining }: QuotaSnapshot): string {
  return limit === null ? t('quotaUnlimited') : t('quotaLeft', remaining ?? limit, limit);
}

/** What `count` requests spend of what is left this hour, said before they are sent. */
export function costText(seen: QuotaSnapshot | null | undefined, count: number): string {
  if (!seen || seen.limit === null) return t('bulkCostUnlimited', count);
  const left = seen.remaining ?? seen.limit;
  return count > left ? t('bulkCostOver', count, left) : t('bulkCost', count, left);
}

/** What one request for a selection of `selected` profiles spends of what is left this hour (1 per 100). */
export function bulkCostText(seen: QuotaSnapshot | null | undefined, selected: number): string {
  return !seen || seen.limit === null ? t('bulkCostOneUnlimited') : costText(seen, bulkCost(selected));
}
