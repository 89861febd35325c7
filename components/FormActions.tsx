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
        {/* Busy, it keeps the focus (a disabled button would drop it to the page); a second submit is ignored. */}
        <button type="submit" aria-disabled={busy}>
          {t('save')}
        </button>
        <button type="button" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </>
  );
}
