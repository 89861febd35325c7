import type { ComponentChildren } from 'preact';
import { t } from '../lib/i18n';
import { fromNow } from '../lib/when';
import { useSaidByBanner } from './service-down';

/**
 * A view drawn from the lists kept from before. While the service cannot be reached (its banner, with Try again,
 * says so above) they are still shown, said to be stale with when they were fetched, and every control of the
 * view is off (a disabled fieldset): each needs the service.
 */
export function KeptList({
  savedAt,
  children,
}: {
  savedAt: number | undefined;
  children: ComponentChildren;
}) {
  const down = useSaidByBanner();
  return (
    <fieldset class="stack kept" disabled={down}>
      {down && savedAt ? (
        <p class="muted" role="status">
          {t('staleList', fromNow(new Date(savedAt).toISOString()))}
        </p>
      ) : null}
      {children}
    </fieldset>
  );
}
