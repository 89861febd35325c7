import { useEffect, useState } from 'preact/hooks';
import { Check } from '../../components/Check';
import { download } from '../../components/download';
import { ExportButtons } from '../../components/ExportButtons';
import { useItem, useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import type { AutomationRun, Batch } from '../../lib/api/schemas/automation';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { lastBatch } from '../../lib/storage';
import { finishText, summaryOf } from './batch-view';
import { FoundRuns } from './Runs';

/** How often an unfinished batch is read again while the card is shown. */
const FOLLOW_MS = 2000;

/**
 * The last run on many profiles as one card: its summary and its runs counted, followed until every run ended,
 * with when it should finish; pause, resume, or cancel of what has not finished; its failed runs on asking;
 * retry of the failed, in the same batch; its outputs exported as CSV or JSON. `runsApart`: its runs are listed
 * beside it (the manager's), so it does not offer its failed ones.
 */
export function BatchCard({ runsApart = false }: { runsApart?: boolean }) {
  const batchId = useItem(lastBatch);
  const [batch, setBatch] = useState<Batch | null>(null);
  const [failedOnly, setFailedOnly] = useState(false);
  const [failed, setFailed] = useState<AutomationRun[] | null>(null);
  /** Grows with each retry: the batch is followed again until its new runs end. */
  const [round, setRound] = useState(0);
  const task = useTask();

  async function read(id: string) {
    const reply = await connector.send({ type: 'batch.get', batchId: id });
    if (reply.ok) setBatch(reply.value);
    return reply.ok && !reply.value.finished;
  }
  useEffect(() => {
    if (!batchId) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const follow = async () => {
      if (await read(batchId)) timer = setTimeout(follow, FOLLOW_MS);
    };
    void follow();
    return () => clearTimeout(timer);
  }, [batchId, round]);

  async function showFailed(on: boolean) {
    setFailedOnly(on);
    setFailed(null);
    if (!on || !batchId) return;
    const reply = await task.run(() => connector.send({ type: 'batch.runs', batchId, status: 'failed' }));
    if (reply.ok) setFailed(reply.value.data);
  }

  async function retry() {
    if (!batchId) return;
    const reply = await task.run(() => connector.send({ type: 'batch.retry', batchId }));
    if (reply.ok) {
      setBatch(reply.value);
      setFailed(null);
      setFailedOnly(false);
      setRound(round + 1);
    }
  }

  async function control(type: 'batch.pause' | 'batch.resume' | 'batch.cancel') {
    if (!batchId) return;
    const reply = await task.run(() => connector.send({ type, batchId }));
    if (reply.ok) {
      setBatch(reply.value);
      setRound(round + 1);
    }
  }

  async function exportAs(format: 'csv' | 'json') {
    if (!batchId) return;
    const reply = await task.run(() => connector.send({ type: 'batch.export', batchId, format }));
    if (reply.ok) download(reply.value, `${batch?.name ?? batchId}.${format}`, `text/${format}`);
  }

  if (!batchId || !batch) return null;
  const finish = finishText(batch);
  return (
    <article class="stack batch" aria-labelledby="batch-title">
      <h3 id="batch-title">{t('batchTitle', batch.name ?? batch.id)}</h3>
      <p role="status">{summaryOf(batch)}</p>
      <p class="muted">
        {t('batchCounts', batch.queued, batch.running, batch.succeeded, batch.failed)}
        {finish && ` · ${finish}`}
      </p>
      {!batch.finished && (
        <div class="bar wrap">
          <button
            type="button"
            disabled={task.busy}
            onClick={() => control(batch.paused ? 'batch.resume' : 'batch.pause')}
          >
            {t(batch.paused ? 'batchResume' : 'batchPause')}
          </button>
          <button type="button" disabled={task.busy} onClick={() => control('batch.cancel')}>
            {t('batchCancel')}
          </button>
        </div>
      )}
      <div class="bar wrap">
        {!runsApart && (
          <Check checked={failedOnly} onCheck={showFailed}>
            {t('batchFailedOnly')}
          </Check>
        )}
        <button type="button" disabled={task.busy || batch.failed === 0} onClick={retry}>
          {t('batchRetry', batch.failed)}
        </button>
        <ExportButtons
          labels={{ csv: t('batchExportCsv'), json: t('batchExportJson') }}
          busy={task.busy}
          onExport={exportAs}
        />
      </div>
      <Problem error={task.error} />
      {failed && <FoundRuns runs={failed} none={t('batchNoFailed')} />}
    </article>
  );
}
