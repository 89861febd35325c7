import { useEffect, useRef } from 'preact/hooks';
import { t } from '../lib/i18n';

interface ConfirmProps {
  question: string;
  action: string;
  busy: boolean;
  /** The action destroys something: it is styled as such, and Cancel, the safe answer, has the focus. */
  destructive?: boolean;
  onConfirm: () => void;
  /** Closes the question; the opener gets the focus back. */
  onCancel: () => void;
}

/** A question in place, with the action and Cancel; Enter answers with the focused one, Escape cancels. */
export function Confirm({ question, action, busy, destructive = false, onConfirm, onCancel }: ConfirmProps) {
  const actionButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  useEffect(() => (destructive ? cancelButton : actionButton).current?.focus(), []);
  return (
    <fieldset class="confirm" onKeyDown={(event) => event.key === 'Escape' && onCancel()}>
      <legend>{question}</legend>
      <button
        type="button"
        class={destructive ? 'danger' : 'primary'}
        ref={actionButton}
        disabled={busy}
        onClick={onConfirm}
      >
        {action}
      </button>
      <button type="button" ref={cancelButton} onClick={onCancel}>
        {t('cancel')}
      </button>
    </fieldset>
  );
}
