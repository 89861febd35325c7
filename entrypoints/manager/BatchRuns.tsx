import { useEffect, useRef, useState } from 'preact/hooks';
import { useItem, useTask } from '../../components/hooks';
import { LoadMore } from '../../components/LoadMore';
import { Problem } from '../../components/Problem';
import { type AutomationRun, RunStatus } from '../../lib/api/schemas/automation';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { lastBatch } from '../../lib/storage';
import { FoundRuns, statusText } from '../popup/Runs';

/** How often the first page is read again while a run on it has not ended. */
const FOLLOW_MS = 2000;

const isActive = (run: AutomationRun) => run.status === 'queued' || run.status === 'running';

/**
 * The chosen batch's runs, each profile's latest, with their state (queued, running, succeeded, failed,
 * cancelled), all or of one state, a page at a time; the first page follows its runs until they end.
 */
export function BatchRuns() {
  const batchId = useItem(lastBatch);
  const [status, setStatus] = useState<RunStatus | ''>('');
  const [runs, setRuns] = useState<AutomationRun[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  /** More than the first page is shown: it is no longer followed (its re-reading would drop the rest). */
  const extended = useRef(false);
  const task = useTask();

  async function read(after?: string) {
    if (!batchId) return null;
    const reply = await task.run(() =>
      connector.send({ type: 'batch.runs', batchId, status: status || undefined, cursor: after }),
    );
    return reply.ok ? reply.value : null;
  }

  useEffect(() => {
    setRuns(null);
    extended.current = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Another batch or state chosen meanwhile: this one's answer is not shown.
    let left = false;
    const follow = async () => {
      const page = await read();
      if (!page || extended.current || left) return;
      setRuns(page.data);
      setCursor(page.next_cursor);
      if (page.data.some(isActive)) timer = setTimeout(follow, FOLLOW_MS);
    };
    void follow();
    return () => {
      left = true;
      clearTimeout(timer);
    };
  }, [batchId, status]);

  if (!batchId) return null;
  return (
    <section class="stack" aria-label={t('batchRunsTitle')}>
      <label>
        {t('batchRunsShow')}{' '}
        <select value={status} onInput={(event) => setStatus(event.currentTarget.value as RunStatus | '')}>
          <option value="">{t('batchRunsAll')}</option>
          {RunStatus.options.map((state) => (
            <option key={state} value={state}>
              {statusText(state)}
            </option>
          ))}
        </select>
      </label>
      <Problem error={task.error} />
      {runs && <FoundRuns runs={runs} none={t('batchRunsNone')} />}
      {runs && cursor && (
        <LoadMore
          busy={task.busy}
          onLoad={async () => {
            extended.current = true;
            const page = await read(cursor);
            if (!page) return;
            setRuns([...runs, ...page.data]);
            setCursor(page.next_cursor);
          }}
        />
      )}
    </section>
  );
}
