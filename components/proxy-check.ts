import type { ProxyCheck } from '../lib/api/schemas/proxies';
import { t } from '../lib/i18n';

/** "Works: exit IP 203.0.113.7 (Europe/Berlin), 120 ms." or why it does not. */
export function proxyCheckText(check: ProxyCheck): string {
  if (!check.ok) return t('proxyFails', check.reason);
  return t('proxyWorks', check.timezone ? `${check.ip} (${check.timezone})` : check.ip, check.took_ms);
}
