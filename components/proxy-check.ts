import type { ProxyCheck } from '../lib/api/schemas/proxies';
import { t } from '../lib/i18n';

/** "Works: exit IP 203.0.113.7 (Europe/Berlin), 120 ms." or why it does not. */
export function proxyCheckText({ ok, ip = '', timezone, reason = '', took_ms }: ProxyCheck): string {
  if (!ok) return t('proxyFails', reason);
  return t('proxyWorks', timezone ? `${ip} (${timezone})` : ip, took_ms);
}
