import { useEffect, useState } from 'preact/hooks';
import { useItem } from '../../components/hooks';
import type { Batch } from '../../lib/api/schemas/automation';
import { t } from '../../lib/i18n';
import { connector } from '../../lib/messaging/connector';
import { lastBatch } from '../../lib/storage';
import { summaryOf } from './batch-view';

/** Every batch of the account, newest first, each summed up; choosing one shows it in the batch card. */
export function BatchList() {
  const shown = useItem(lastBatch);
  const [batches, setBatches] = useState<Batch[] | null>(null);
  useEffect(() => {
    void connector.send({ type: 'batches.list' }).then((reply) => reply.ok && setBatches(reply.value));
  }, [shown]);
  if (batches === null) return null;
  return (
    <details class="stack">
      <summary>{t('batchesTitle')}</summary>
      {batches.length === 0 ? (
        <p class="muted">{t('batchesNone')}</p>
      ) : (
        <ul class="stack">
          {batches.map((batch) => (
            <li key={batch.id}>
              <button
                type="button"
                class="link"
                aria-current={batch.id === shown}
                onClick={() => void connector.send({ type: 'batch.show', batchId: batch.id })}
              >
                {batch.name ?? batch.id}
              </button>{' '}
              <span class="muted">{summaryOf(batch)}</span>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
