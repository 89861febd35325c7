import { useState } from 'preact/hooks';
import { Field } from '../../components/Field';
import { useTask } from '../../components/hooks';
import { Outcome } from '../../components/Outcome';
import { Problem } from '../../components/Problem';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';

const FILES = {
  json: { extension: 'json', type: 'application/json' },
  netscape: { extension: 'txt', type: 'text/plain' },
} as const;

/** Hands `text` to the browser as a file to save. */
function download(text: string, name: string, type: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/**
 * A profile's cookies out to a file (JSON or cookies.txt) and in from a paste or a file, through the service.
 * What is pasted stays in this form only: cookies are credentials, never kept in a draft.
 */
export function CookieTools({ profileId, profileName }: { profileId: string; profileName: string }) {
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState('');
  const task = useTask();

  async function exportAs(format: keyof typeof FILES) {
    const reply = await task.run(() => connector.send({ type: 'cookies.export', profileId, format }));
    if (!reply.ok) return;
    const { extension, type } = FILES[format];
    download(reply.value, `${profileName} cookies.${extension}`, type);
  }

  async function importText() {
    setOutcome('');
    const reply = await task.run(() => connector.send({ type: 'cookies.import', profileId, text }));
    if (!reply.ok) return;
    const { imported, session_cookies_not_kept: notKept } = reply.value;
    setText('');
    setOutcome(
      [t('cookiesImported', imported), ...(notKept ? [t('cookiesNotKept', notKept)] : [])].join('\n'),
    );
  }

  return (
    <details>
      <summary>{t('cookies')}</summary>
      <div class="stack">
        <div class="bar">
          <button type="button" disabled={task.busy} onClick={() => exportAs('json')}>
            {t('exportCookiesJson')}
          </button>
          <button type="button" disabled={task.busy} onClick={() => exportAs('netscape')}>
            {t('exportCookiesTxt')}
          </button>
        </div>
        <Field
          as="textarea"
          rows={3}
          class="code"
          spellcheck={false}
          label={t('pasteCookies')}
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <Field
          label={t('cookiesFile')}
          type="file"
          accept=".json,.txt,application/json,text/plain"
          onChange={(event) => event.currentTarget.files?.[0]?.text().then(setText)}
        />
        <button type="button" disabled={task.busy || !text.trim()} onClick={importText}>
          {t('importCookies')}
        </button>
        <Problem error={task.error} />
        {outcome && <Outcome text={outcome} />}
      </div>
    </details>
  );
}
