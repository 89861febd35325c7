import type { QuotaSnapshot } from '../lib/api/rate-limit';
import { t } from '../lib/i18n';

/** "72 of 100 requests left this hour", or that the plan has no limit. */
export function quotaText({ limit, remaining }: QuotaSnapshot): string {
  return limit === null ? t('quotaUnlimited') : t('quotaLeft', remaining ?? limit, limit);
}
