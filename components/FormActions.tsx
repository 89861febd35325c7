import { t } from '../lib/i18n';
import type { WorkerError } from '../lib/messaging/protocol';
import { Problem } from './Problem';

/** The end of a form: what went wrong on the last try, then Save and Cancel. */
export function FormActions({
  busy,
  error,
  onCancel,
}: {
  busy: boolean;
  error: WorkerError | null;
  onCancel: () => void;
}) {
  return (
    <>
      <Problem error={error} />
      <div class="bar">
        <button type="submit" disabled={busy}>
          {t('save')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </>
  );
}
