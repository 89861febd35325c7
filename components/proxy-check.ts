import type { ProxyCheck } from '../lib/api/schemas/proxies';
import { t } from '../lib/i18n';

/** Where a proxy's exit is: "Berlin, DE", or nothing when the check did not place it. */
export const placeOf = ({ city, country }: ProxyCheck) => [city, country].filter(Boolean).join(', ');

/** "Works: exit IP 203.0.113.7 in Berlin, DE (Europe/Berlin), 120 ms." or why it does not. */
export function proxyCheckText({
  ok,
  ip = '',
  country,
  city,
  timezone,
  reason = '',
  took_ms,
}: ProxyCheck): string {
  if (!ok) return t('proxyFails', reason);
  const place = placeOf({ ok, city, country, took_ms });
  const exit = `${ip}${place ? ` ${t('proxyExitIn', place)}` : ''}`;
  return t('proxyWorks', timezone ? `${exit} (${timezone})` : exit, took_ms);
}
