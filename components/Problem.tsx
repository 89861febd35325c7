import { useEffect, useState } from 'preact/hooks';
import { t } from '../lib/i18n';
import { useSaidByBanner } from './service-down';

interface ProblemProps {
  /** A sentence, and how long the service asked to wait before trying again. */
  error: { message: string; retryAfter?: number | null; code?: string } | null;
  retry?: () => unknown;
}

/**
 * A failure as a sentence, with a Retry that waits as long as the service asked. A service that cannot be
 * reached is said once, by the popup's banner, not again here.
 */
export function Problem({ error, retry }: ProblemProps) {
  const saidByBanner = useSaidByBanner();
  // The error whose wait is over: Retry is disabled from the first moment an error asks to wait.
  const [waited, setWaited] = useState<ProblemProps['error']>(null);
  useEffect(() => {
    if (!error?.retryAfter) return;
    const timer = setTimeout(() => setWaited(error), error.retryAfter * 1000);
    return () => clearTimeout(timer);
  }, [error]);
  if (!error || (saidByBanner && error.code === 'network_error')) return null;
  return (
    <p role="alert" class="problem">
      {error.message}{' '}
      {retry && (
        <button type="button" disabled={!!error.retryAfter && waited !== error} onClick={retry}>
          {t('retry')}
        </button>
      )}
    </p>
  );
}

/**
 * What a list shows when it has nothing to show: that it is loading, or what to do to fill it, with the button
 * that does it (`action`).
 */
export function ListState({
  list,
  busy,
  loading,
  empty,
  action,
}: {
  list?: unknown[] | undefined;
  busy: boolean;
  loading: string;
  empty: string;
  action?: { label: string; run: () => void } | undefined;
}) {
  if (list?.length) return null;
  if (busy)
    return (
      <p aria-busy="true" class="muted">
        {loading}
      </p>
    );
  if (!list) return null;
  return (
    <div class="empty stack">
      <p class="muted">{empty}</p>
      {action && (
        <p>
          <button type="button" class="primary" onClick={action.run}>
            {action.label}
          </button>
        </p>
      )}
    </div>
  );
}
