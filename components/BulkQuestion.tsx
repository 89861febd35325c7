import { useEffect, useRef, useState } from 'preact/hooks';
import type { BulkRequestInput } from '../lib/api/inputs/bulk';
import type { QuotaSnapshot } from '../lib/api/rate-limit';
import { t } from '../lib/i18n';
import { cachedProxies, savedScripts } from '../lib/storage';
import { type BulkAction, bulkRequest, numberFor, pastedLines, type Selected } from './bulk-rules';
import { questionText } from './bulk-text';
import { useItem } from './hooks';
import { LinePreview } from './LinePreview';

/** The question a bulk action asks first: what it will do, its fields, and a button saying the same number. */
export function BulkQuestion({
  action,
  selected,
  seen,
  busy,
  onSend,
  onCancel,
}: {
  action: BulkAction;
  selected: Selected;
  seen: QuotaSnapshot | null | undefined;
  busy: boolean;
  onSend: (body: BulkRequestInput) => void;
  onCancel: () => void;
}) {
  const proxies = useItem(cachedProxies)?.data ?? [];
  const scripts = useItem(savedScripts) ?? {};
  const [value, setValue] = useState('');
  const [pasted, setPasted] = useState('');
  const question = useRef<HTMLFieldSetElement>(null);
  // Delete's safe answer, Cancel, has the focus; otherwise the question's first control.
  useEffect(() => {
    const controls = question.current?.querySelectorAll<HTMLElement>('select, textarea, input, button');
    (action === 'delete' ? controls?.[controls.length - 1] : controls?.[0])?.focus();
  }, [action]);
  const lines = pastedLines(pasted);

  const confirmButton = (removing = false) => {
    const body = bulkRequest(selected, action, { value, pasted, scripts, removing });
    const label = action === 'tags' && removing ? 'bulk_untag' : `bulk_${action}`;
    return (
      <button
        type="button"
        class={action === 'delete' ? 'danger' : 'primary'}
        disabled={busy || !body}
        onClick={() => body && onSend(body)}
      >
        {t(label as 'bulk_start', numberFor(selected, action))}
      </button>
    );
  };

  return (
    <fieldset
      ref={question}
      class="confirm stack"
      onKeyDown={(event) => event.key === 'Escape' && onCancel()}
    >
      <legend>{questionText(selected, action, seen)}</legend>
      {action === 'proxy' && (
        <>
          <label>
            {t('bulkProxyPick')}
            <select value={value} onInput={(event) => setValue(event.currentTarget.value)}>
              <option value="">{t('noProxy')}</option>
              {proxies.map((proxy) => (
                <option key={proxy.id} value={proxy.id}>
                  {proxy.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t('bulkProxyPaste')}
            <textarea
              rows={3}
              class="code"
              value={pasted}
              onInput={(event) => setPasted(event.currentTarget.value)}
            />
          </label>
          {lines.length > 0 && lines.length !== selected.count && (
            <p class="muted">{t('bulkProxyUneven', lines.length, selected.count)}</p>
          )}
          <LinePreview names={(selected.order ?? selected.picked).map(({ name }) => name)} lines={lines} />
        </>
      )}
      {action === 'tags' && (
        <label>
          {t('bulkTagsField')}
          <input value={value} onInput={(event) => setValue(event.currentTarget.value)} />
        </label>
      )}
      {action === 'run' && (
        <label>
          {t('bulkRunPick')}
          <select value={value} onInput={(event) => setValue(event.currentTarget.value)}>
            <option value="">{t('chooseScript')}</option>
            {Object.keys(scripts).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      )}
      <div class="bar">
        {confirmButton()}
        {action === 'tags' && confirmButton(true)}
        <button type="button" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
      {busy && (
        <p role="status" class="muted">
          {t('working')}
        </p>
      )}
    </fieldset>
  );
}
