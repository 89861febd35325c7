import { t } from '../lib/i18n';
import { useServiceDownBanner } from './service-down';

/** Says once, for every view, that the service cannot be reached and what to do. */
export function ServiceDownBanner() {
  const down = useServiceDownBanner();
  if (!down) return null;
  return (
    <div role="alert" class="problem banner">
      <p>
        <strong>{down.message}</strong> {t('serviceDownHint')}
      </p>
      <button type="button" onClick={() => location.reload()}>
        {t('tryAgain')}
      </button>
    </div>
  );
}
