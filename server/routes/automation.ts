import { Hono } from 'hono';
import { RunCreate } from '../../lib/api/inputs/automation';
import { RunStatusQuery } from '../../lib/api/inputs/queries';
import type { AppDeps } from '../deps';
import type { AppEnv } from '../http/env';
import { recordAnswer } from '../http/idempotency';
import { notFound } from '../http/problem';
import { readCursor, readJsonBody, readQuery } from '../http/validate';
import { findArtifact, findRun, listRuns, toRun } from '../store/runs';

export function automationRoutes({ db, automation, runEvents, lifecycle }: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post('/v1/automation/run', async (c) => {
    const body = await readJsonBody(c, RunCreate);
    const location = (id: string) => `/v1/automation/status?run_id=${id}`;
    const run = await automation.enqueue(c.get('account').id, body, (queued, tx) =>
      recordAnswer(c, tx, { status: 202, body: queued, headers: { Location: location(queued.id) } }),
    );
    return c.json(run, 202, { Location: location(run.id) });
  });

  routes.get('/v1/automation/status', async (c) => {
    const query = readQuery(c, RunStatusQuery);
    const accountId = c.get('account').id;
    if (query.run_id === undefined) {
      return c.json(
        await listRuns(db, accountId, {
          limit: query.limit,
          after: readCursor(query.cursor),
          status: query.status,
        }),
      );
    }
    const runId = query.run_id;
    let run = await findRun(db, accountId, runId);
    if (!run) throw notFound('run');
    if (query.wait && query.after_version !== undefined && run.version <= query.after_version) {
      const deadline = Date.now() + query.wait * 1000;
      const gone = AbortSignal.any([c.req.raw.signal, lifecycle.shutdownSignal]);
      while (run.version <= query.after_version && Date.now() < deadline && !gone.aborted) {
        await runEvents.nextChange(runId, deadline - Date.now(), gone);
        run = (await findRun(db, accountId, runId)) ?? run;
      }
    }
    return c.json(toRun(run));
  });

  routes.post('/v1/automation/runs/:id/cancel', async (c) => {
    return c.json(await automation.cancel(c.get('account').id, c.req.param('id')));
  });

  routes.get('/v1/automation/runs/:id/artifacts/:name', async (c) => {
    const artifact = await findArtifact(db, c.get('account').id, c.req.param('id'), c.req.param('name'));
    if (!artifact) throw notFound('artifact');
    return c.body(new Uint8Array(artifact.bytes), 200, {
      'Content-Type': artifact.content_type,
      'Cache-Control': 'private, max-age=86400, immutable',
    });
  });

  return routes;
}
