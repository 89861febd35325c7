import type { Context } from 'hono';
import type { RunCreate } from '../../lib/api/inputs/automation';
import { readArtifact } from '../automation/artifacts';
import { cancelBatch, pauseBatch, resumeBatch } from '../automation/batch-controls';
import { exportBatch } from '../automation/batch-export';
import { readBatch, readBatches, retryFailed } from '../automation/batches';
import { runOf } from '../automation/run-of';
import type { RunScheduler } from '../automation/scheduler';
import { waitForRun } from '../automation/wait-for-run';
import { NotFound } from '../core/domain-errors';
import type { AppEnv } from '../http/env';
import type { Answer } from '../http/idempotency';
import { type Keep, type Route, route } from '../http/route';
import { readCursor } from '../http/validate';
import { isActiveRun, listRuns, toRun } from '../store/runs';

const runLocation = (id: string) => `/v1/automation/status?run_id=${id}`;

/** Queues a run of the caller's account and answers it where to follow it (the answer kept for a retried key). */
async function queueRun(c: Context<AppEnv>, automation: RunScheduler, body: RunCreate, keep: Keep) {
  let kept: Answer | undefined;
  await automation.enqueue(c.get('account'), c.get('account').member, body, async (queued, tx) => {
    kept = await keep(tx, queued, { Location: runLocation(queued.id) });
  });
  // enqueue stores the run with its `record` callback, in the run's transaction, before it returns.
  return kept as Answer;
}

export const automationRoutes: Route[] = [
  route('runAutomation', (c, { body, keep }, { automation }) => queueRun(c, automation, body, keep)),

  route(
    'getRun',
    async (c, { query, status }, { db, publisher, lifecycle }) => {
      const reader = c.get('account');
      if (query.run_id === undefined) {
        const page = await listRuns(db, reader, {
          limit: query.limit,
          after: readCursor(query.cursor),
          status: query.status,
          ...(query.profile_id ? { profileId: query.profile_id } : {}),
          ...(query.batch_id ? { batchId: query.batch_id } : {}),
        });
        return c.json(page, status);
      }
      let run = await runOf(db, reader, query.run_id);
      const answerable = (current: NonNullable<typeof run>) =>
        query.until === 'finished'
          ? !isActiveRun(current.status)
          : query.after_version === undefined || current.version > query.after_version;
      if (query.wait) {
        const gone = AbortSignal.any([c.req.raw.signal, lifecycle.shutdownSignal]);
        run = await waitForRun({ db, publisher }, run, answerable, Date.now() + query.wait * 1000, gone);
      }
      return c.json(toRun(run), status);
    },
    { alsoAnswers: ['listRuns'] },
  ),

  route('rerunRun', async (c, { params, keep }, { db, automation }) => {
    const earlier = await runOf(db, c.get('account'), params.id);
    const body = {
      profile_id: earlier.profile_id,
      script: earlier.script,
      ...(earlier.name ? { name: earlier.name } : {}),
    };
    return queueRun(c, automation, body, keep);
  }),

  route('cancelRun', async (c, { params, status }, { automation }) => {
    return c.json(await automation.cancel(c.get('account'), params.id), status);
  }),

  route('listBatches', async (c, { query, status }, deps) => {
    const page = { limit: query.limit, after: readCursor(query.cursor) };
    return c.json(await readBatches(deps, c.get('account'), page), status);
  }),

  route('getBatch', async (c, { params, status }, deps) => {
    return c.json(await readBatch(deps, c.get('account'), params.id), status);
  }),

  route('pauseBatch', async (c, { params, status }, deps) => {
    return c.json(await pauseBatch(deps, c.get('account'), params.id), status);
  }),

  route('resumeBatch', async (c, { params, status }, deps) => {
    return c.json(await resumeBatch(deps, c.get('account'), params.id), status);
  }),

  route('cancelBatch', async (c, { params, status }, deps) => {
    return c.json(await cancelBatch(deps, c.get('account'), params.id), status);
  }),

  route('retryBatch', async (c, { params, status }, deps) => {
    return c.json(await retryFailed(deps, c.get('account'), c.get('account').member, params.id), status);
  }),

  route('exportBatch', async (c, { params, query, status }, { db }) => {
    const file = await exportBatch(db, c.get('account'), params.id, query.format);
    return c.body(file.body, status, {
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.fileName}"`,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
  }),

  route('getArtifact', async (c, { params, status }, { db, config }) => {
    const run = { reader: c.get('account'), runId: params.id };
    const artifact = await readArtifact({ db, dataDir: config.dataDir }, run, params.name);
    if (!artifact) throw new NotFound('artifact');
    return c.body(new Uint8Array(artifact.bytes), status, {
      'Content-Type': artifact.contentType,
      'Cache-Control': 'private, max-age=86400, immutable',
    });
  }),
];
