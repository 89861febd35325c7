import { t } from '../lib/i18n';
import type { ProfileFilter } from '../lib/storage';

/** Any status, running or idle: what a list of profiles is narrowed to. */
export function StatusFilter({
  status,
  onStatus,
}: {
  status: ProfileFilter['status'];
  onStatus: (status: ProfileFilter['status']) => void;
}) {
  return (
    <select
      aria-label={t('profileStatusFilter')}
      class="narrow"
      value={status ?? ''}
      onInput={(event) => {
        const chosen = event.currentTarget.value;
        onStatus(chosen === 'running' || chosen === 'idle' ? chosen : undefined);
      }}
    >
      <option value="">{t('anyStatus')}</option>
      <option value="running">{t('running')}</option>
      <option value="idle">{t('idle')}</option>
    </select>
  );
}
