import { useState } from 'preact/hooks';
import { useTask } from '../../components/hooks';
import { Problem } from '../../components/Problem';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';

/** Opens a running session's live view in a tab (a session's row, a running run). */
export function WatchButton({ sessionId, name }: { sessionId: string; name: string }) {
  const task = useTask();
  const [stopped, setStopped] = useState(false);
  const watch = () =>
    task
      .run(() => connector.send({ type: 'session.watch', sessionId }))
      .then((reply) => setStopped(reply.ok && !reply.value));
  return (
    <>
      <button type="button" disabled={task.busy} aria-label={t('watchNamed', name)} onClick={watch}>
        {t('watch')}
      </button>
      <Problem error={task.error ?? (stopped ? { message: t('notWatchable') } : null)} />
    </>
  );
}
