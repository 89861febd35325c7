import { download } from '../../components/download';
import { ExportButtons } from '../../components/ExportButtons';
import { Field } from '../../components/Field';
import { Fold } from '../../components/Fold';
import { useTask } from '../../components/hooks';
import { PasteBox } from '../../components/PasteBox';
import { Problem } from '../../components/Problem';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';

const FILES = {
  json: { extension: 'json', type: 'application/json' },
  netscape: { extension: 'txt', type: 'text/plain' },
} as const;

/** A profile's cookies out to a file (JSON or cookies.txt) and in from a paste or a file, through the service. */
export function CookieTools({ profileId, profileName }: { profileId: string; profileName: string }) {
  const exporting = useTask();

  async function exportAs(format: keyof typeof FILES) {
    const reply = await exporting.run(() => connector.send({ type: 'cookies.export', profileId, format }));
    if (!reply.ok) return;
    const { extension, type } = FILES[format];
    download(reply.value, `${profileName} cookies.${extension}`, type);
  }

  return (
    <Fold title={t('cookies')}>
      <div class="bar">
        <ExportButtons
          labels={{ json: t('exportCookiesJson'), netscape: t('exportCookiesTxt') }}
          busy={exporting.busy}
          onExport={exportAs}
        />
      </div>
      <Problem error={exporting.error} />
      <PasteBox
        label={t('pasteCookies')}
        action={t('importCookies')}
        busyAction={t('importingCookies')}
        send={(text) => connector.send({ type: 'cookies.import', profileId, text })}
        outcomeOf={({ imported, session_cookies_not_kept: notKept }) =>
          [t('cookiesImported', imported), ...(notKept ? [t('cookiesNotKept', notKept)] : [])].join('\n')
        }
        more={(setText) => (
          <Field
            label={t('cookiesFile')}
            type="file"
            accept=".json,.txt,application/json,text/plain"
            onChange={(event) => event.currentTarget.files?.[0]?.text().then(setText)}
          />
        )}
      />
    </Fold>
  );
}
