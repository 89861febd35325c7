import { useEffect } from 'preact/hooks';
import { t } from '../lib/i18n';
import { connector } from '../lib/messaging/connector';
import { useServiceDownBanner } from './service-down';

/** How often the page asks whether the service is back while it cannot be reached. */
export const RECHECK_MS = 5_000;

/**
 * Says once, for every view, that the service cannot be reached and what to do; meanwhile it asks again every few
 * seconds, and the page starts afresh once the service answers.
 */
export function ServiceDownBanner() {
  const down = useServiceDownBanner();
  useEffect(() => {
    if (!down) return;
    const timer = setInterval(async () => {
      const reply = await connector.send({ type: 'sessions.refresh' });
      if (reply.ok) location.reload();
    }, RECHECK_MS);
    return () => clearInterval(timer);
  }, [down]);
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
