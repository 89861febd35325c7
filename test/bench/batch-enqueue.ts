/**
 * How long a bulk run on the bulk cap of profiles (1,000) takes to answer: the time from the POST to the answer
 * that queues them as one batch, which the popup waits for (60 s at most). The service has room for one browser,
 * so nearly all of them wait in line; then the time to cancel the batch.
 * Run: node --import tsx test/bench/batch-enqueue.ts   Settings: ENQUEUE_RUNS (1000).
 */

import { BULK_LIMITS } from '../../lib/api/bulk-limits';
import { createClient } from '../../lib/api/client';
import { startService } from '../support/harness';

const runs = Number(process.env.ENQUEUE_RUNS ?? BULK_LIMITS.run);

const service = await startService({ env: { MAX_BROWSERS: '1', ENTERPRISE_MAX_SESSIONS: '1' } });
const api = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
try {
  const rows = Array.from({ length: runs }, (_, n) => `Fleet ${n},,fleet,`);
  await api.importProfiles(['name,proxy,tags,notes', ...rows].join('\n'), 'csv');
  const script = { steps: [{ action: 'wait_for' as const, ms: 0 }] };
  const started = performance.now();
  const queued = await api.bulkProfiles({ select: { filter: { tag: 'fleet' } }, action: 'run', script });
  const ms = performance.now() - started;
  console.log(
    `bulk run on ${runs} profiles: queued ${queued.succeeded} of ${queued.selected} as one batch, answered in ${ms.toFixed(0)} ms`,
  );
  const cancelStarted = performance.now();
  const cancelled = await api.cancelBatch(queued.batch_id as string);
  console.log(
    `cancelling it: ${cancelled.summary}, answered in ${(performance.now() - cancelStarted).toFixed(0)} ms`,
  );
} finally {
  await service.close();
}
