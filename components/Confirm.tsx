import { useEffect, useRef } from 'preact/hooks';
import { t } from '../lib/i18n';

interface ConfirmProps {
  question: string;
  action: string;
  busy: boolean;
  onConfirm: () => void;
  /** Closes the question; the opener gets the focus back. */
  onCancel: () => void;
}

/** A question in place, with the action and Cancel; the action has the focus so Enter or Escape decide. */
export function Confirm({ question, action, busy, onConfirm, onCancel }: ConfirmProps) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <fieldset class="confirm" onKeyDown={(event) => event.key === 'Escape' && onCancel()}>
      <legend>{question}</legend>
      <button type="button" class="danger" ref={button} disabled={busy} onClick={onConfirm}>
        {action}
      </button>
      <button type="button" onClick={onCancel}>
        {t('cancel')}
      </button>
    </fieldset>
  );
}
