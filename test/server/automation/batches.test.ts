/**
 * A run on many profiles is one batch: summed up, its failed runs listed and retried in it (with no room for
 * them all at once they wait in line and none fails for it), its outputs exported
 * as CSV (cells a spreadsheet would run as formulas defused) and JSON; another account sees none of it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { Batch } from '../../../lib/api/schemas/automation';
import { apiError, type TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

/** What the page shows: text a spreadsheet would take for a formula, with a quote and a comma. */
const PAGE_TEXT = '=HYPERLINK("http://evil.example","click, here")';

let service: TestService;
let api: ApiClient;
let stranger: ApiClient;
let site: Server;
let origin: string;
/** The page has its value from its third showing on (the first two runs find none). */
let showings = 0;

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/') showings += 1;
    const value = showings > 2 ? `<p id="v">${PAGE_TEXT}</p>` : '<p>Not yet</p>';
    res.setHeader('Content-Type', 'text/html').end(`<!doctype html><title>Batch</title>${value}`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // One session at a time: the runs of a batch wait for it in line, in order.
  service = await startServiceInProcess({ env: { EGRESS_ALLOW: 'loopback', ENTERPRISE_MAX_SESSIONS: '1' } });
  api = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
  stranger = createClient({ baseUrl: service.baseUrl, apiKey: await service.createKey('enterprise'), fetch });
});

afterAll(async () => {
  await service?.close();
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

async function finished(id: string): Promise<Batch> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const batch = await api.getBatch(id);
    if (batch.finished || Date.now() > deadline) return batch;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('batches', () => {
  it('sums a batch up, lists and retries its failed runs, and exports its outputs', async () => {
    const ids = [];
    for (const name of ['Batch A', 'Batch B', 'Batch C']) ids.push((await api.createProfile({ name })).id);
    const script = {
      steps: [
        { action: 'goto' as const, url: `${origin}/` },
        {
          action: 'evaluate' as const,
          expression: `document.querySelector('#v').textContent`,
          name: 'value',
        },
      ],
    };
    const queued = await api.bulkProfiles({ select: { ids }, action: 'run', script, name: 'Read it' });
    expect(queued).toMatchObject({ selected: 3, succeeded: 3, batch_id: expect.stringMatching(/^bat_/) });
    const batchId = queued.batch_id as string;
    const runIds = queued.items.map((item) => item.run_id);
    for (const runId of runIds) expect((await api.getRun(runId as string)).batch_id).toBe(batchId);

    const first = await finished(batchId);
    expect(first).toMatchObject({ total: 3, succeeded: 1, failed: 2, finished: true, name: 'Read it' });
    expect(first.summary).toBe('1 of 3 succeeded, 2 failed');
    const failed = await api.listRuns({ batch_id: batchId, status: 'failed' });
    expect(failed.data).toHaveLength(2);
    expect(failed.data.every((run) => run.error?.startsWith('Step 2 (evaluate'))).toBe(true);

    const retried = await api.retryBatch(batchId);
    expect(retried).toMatchObject({ total: 3, succeeded: 1, failed: 0, finished: false });
    // Each profile counts once, by its latest run: the retried ones are counted by their new runs.
    expect((await finished(batchId)).summary).toBe('3 of 3 succeeded');
    expect((await api.listRuns({ batch_id: batchId })).data).toHaveLength(3);
    expect((await api.listRuns({ batch_id: batchId, status: 'failed' })).data).toEqual([]);

    const csv = await (await api.exportBatch(batchId, 'csv')).text();
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('run_id,profile_id,profile_name,status,error,finished_at,value');
    expect(lines).toHaveLength(4);
    // Defused: an apostrophe first, then quoted because of its quote and comma.
    for (const line of lines.slice(1))
      expect(line).toMatch(/,succeeded,,[^,]+,"'=HYPERLINK\(""http:\/\/evil\.example"",""click, here""\)"$/);
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[2])
        .sort(),
    ).toEqual(['Batch A', 'Batch B', 'Batch C']);

    const json = JSON.parse(await (await api.exportBatch(batchId, 'json')).text());
    expect(json).toHaveLength(3);
    expect(json[0]).toMatchObject({ status: 'succeeded', error: null, output: { value: PAGE_TEXT } });
    expect(json.map((row: { profile_id: string }) => row.profile_id).sort()).toEqual([...ids].sort());
  }, 240_000);

  it('shows another account nothing of a batch, and retries none of it', async () => {
    const [id] = [(await api.createProfile({ name: 'Private batch' })).id];
    const script = { steps: [{ action: 'wait_for' as const, ms: 0 }] };
    const { batch_id } = await api.bulkProfiles({ select: { ids: [id] }, action: 'run', script });
    const batchId = batch_id as string;
    await finished(batchId);
    expect((await apiError(stranger.getBatch(batchId))).status).toBe(404);
    expect((await apiError(stranger.retryBatch(batchId))).status).toBe(404);
    expect((await apiError(stranger.exportBatch(batchId, 'json'))).status).toBe(404);
    expect((await stranger.listRuns({ batch_id: batchId })).data).toEqual([]);
    expect((await apiError(api.getBatch('bat_none'))).message).toContain('There is no batch with this id.');
  }, 120_000);
});
