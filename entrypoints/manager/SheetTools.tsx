import { useState } from 'preact/hooks';
import { download } from '../../components/download';
import { useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import type { Profile } from '../../lib/api/schemas/profiles';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import type { ProfileFilter } from '../../lib/storage';
import { previewSheet, type SheetPreview, sheetOf } from './sheet-preview';

/** Failures of an import named one by one; the rest are counted. */
const NAMED_FAILURES = 10;

/**
 * Import a CSV sheet after a preview of its first rows and their
 * problems; export the filter's profiles, or the selection's, as a sheet the import takes back.
 */
export function SheetTools({
  filter,
  picked,
  onImported,
}: {
  filter: ProfileFilter;
  /** The profiles selected one by one, exported instead of the filter's when there are some. */
  picked: Profile[];
  onImported: (outcome: string) => void;
}) {
  const [file, setFile] = useState<{ name: string; text: string; preview: SheetPreview } | null>(null);
  const task = useTask();
  const read = async (chosen: File) => {
    const text = await chosen.text();
    setFile({ name: chosen.name, text, preview: previewSheet(text) });
  };

  async function importSheet(text: string) {
    const reply = await task.run(() => connector.send({ type: 'profiles.import', text }));
    if (!reply.ok) return;
    const { created, total, items } = reply.value;
    const failed = items.filter(({ ok }) => !ok);
    setFile(null);
    onImported(
      [
        t('importDone', created, total),
        ...failed
          .slice(0, NAMED_FAILURES)
          .map(({ line, problem }) => t('importLine', line, problem?.detail ?? '')),
        ...(failed.length > NAMED_FAILURES ? [t('bulkMoreFailed', failed.length - NAMED_FAILURES)] : []),
      ].join('\n'),
    );
  }

  async function exportSheet() {
    if (picked.length) return download(sheetOf(picked), 'profiles.csv', 'text/csv');
    const reply = await task.run(() => connector.send({ type: 'profiles.export', ...filter }));
    if (reply.ok) download(reply.value, 'profiles.csv', 'text/csv');
  }

  const preview = file?.preview;
  return (
    <>
      <label class="button">
        {t('importCsv')}
        <input
          type="file"
          accept=".csv,text/csv"
          class="visually-hidden"
          onInput={(event) => {
            const chosen = event.currentTarget.files?.[0];
            event.currentTarget.value = '';
            if (chosen) void read(chosen);
          }}
        />
      </label>
      <button type="button" disabled={task.busy} onClick={exportSheet}>
        {picked.length ? t('exportSelected', picked.length) : t('exportCsv')}
      </button>
      {file && preview && (
        <section class="sheet-preview stack" aria-label={t('importPreview', file.name)}>
          <h2>{t('importPreview', file.name)}</h2>
          {'problem' in preview ? (
            <p role="alert">{preview.problem}</p>
          ) : (
            <>
              <p role="status">{t('importSummary', preview.total, preview.failing)}</p>
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('importLineColumn')}</th>
                    {preview.columns.map((column) => (
                      <th key={column} scope="col">
                        {column}
                      </th>
                    ))}
                    <th scope="col">{t('importProblemColumn')}</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.rows.map(({ line, cells, problem }) => (
                    <tr key={line} class={problem ? 'refused' : undefined}>
                      <td>{line}</td>
                      {preview.columns.map((column, index) => (
                        <td key={column}>{cells[index]}</td>
                      ))}
                      <td>{problem ?? '✓'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          <div class="bar">
            {!('problem' in preview) && (
              <button
                type="button"
                class="primary"
                disabled={task.busy || preview.failing === preview.total}
                onClick={() => importSheet(file.text)}
              >
                {t('importRows', preview.total - preview.failing)}
              </button>
            )}
            <button type="button" onClick={() => setFile(null)}>
              {t('cancel')}
            </button>
          </div>
        </section>
      )}
      <Problem error={task.error} />
    </>
  );
}
