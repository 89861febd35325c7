import type { Profile } from '../lib/api/schemas/profiles';
import type { ProxyConfig } from '../lib/api/schemas/proxies';
import { t } from '../lib/i18n';
import { placeOf } from './proxy-check';

/** A proxy URL as a row shows it: its host and port, without the scheme or the user name. */
const hostOf = (url: string) => url.replace(/^[a-z0-9]+:\/\/(?:[^@/]*@)?/i, '');

/** The proxy as a person knows it, and for a saved one how its last check went: "Berlin ✓ Berlin, DE". */
export function proxyText(
  { proxy, proxy_id, proxy_works }: Profile,
  proxies: readonly ProxyConfig[] | undefined,
): string {
  const saved = proxies?.find(({ id }) => id === proxy_id);
  const check = saved?.last_check;
  const fails = () => `✗ ${t('failsShort')}`;
  // A saved proxy beyond the kept list: the profile says how its last check went.
  if (!saved)
    return `${proxy ? hostOf(proxy) : t(proxy_id ? 'savedProxy' : 'noProxy')}${proxy_works === undefined ? '' : proxy_works ? ' ✓' : ` ${fails()}`}`;
  return check ? `${saved.name} ${check.ok ? `✓ ${placeOf(check)}` : fails()}` : saved.name;
}
