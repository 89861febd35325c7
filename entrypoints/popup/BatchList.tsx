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
  // Read again whenever another batch is shown, a new one included.
  const [batches, setBatches] = useState<Batch[] | null>(null);
  useEffect(() => {
    void connector.send({ type: 'batches.list' }).then((reply) => reply.ok && setBatches(reply.value));
  }, [shown]);
  if (!batches?.length) return null;
  return (
    <details>
      <summary>{t('batchesTitle')}</summary>
      {batches.map((batch) => (
        <p key={batch.id}>
          <button
            type="button"
            class="link"
            onClick={() => void connector.send({ type: 'batch.show', batchId: batch.id })}
          >
            {batch.name ?? batch.id}
          </button>
          : {summaryOf(batch)}
        </p>
      ))}
    </details>
  );
}
