import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, createClient } from '../../../lib/api/client';
import type { AutomationRun } from '../../../lib/api/schemas/automation';
import { openEventStream } from '../../support/event-stream';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;
let api: ApiClient;
let key: string;

beforeAll(async () => {
  service = await startServiceInProcess();
  key = await service.createKey('enterprise');
  api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
});

afterAll(async () => {
  await service?.close();
  if (service) await rm(service.dataDir, { recursive: true, force: true });
});

async function finished(id: string): Promise<AutomationRun> {
  for (;;) {
    const run = await api.getRun(id, { wait: 25, until: 'finished' });
    if (['succeeded', 'failed', 'cancelled'].includes(run.status)) return run;
  }
}

/** A step that throws an error of `megabytes` MB, as a hostile script does. */
const throwing = (megabytes: number) => ({
  action: 'evaluate' as const,
  expression: `(()=>{throw new Error('E'.repeat(${megabytes}*2**20))})()`,
});

describe('texts the service stores and sends are bounded', () => {
  it("cuts a 30 MB error to a few KB with a mark, in the run, its listing and the account's events", async () => {
    const events = await openEventStream(service.baseUrl, key);
    const profile = await api.createProfile({ name: 'Thrower' });
    const session = await api.startSession({ profile_id: profile.id });
    const worst = await api.runAutomation({
      session_id: session.id,
      script: { steps: [throwing(30)] },
    });
    const run = await finished(worst.id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^Step 1 \(evaluate .*\) failed: E+… \[cut\]$/);
    expect(Buffer.byteLength(run.error ?? '')).toBeLessThanOrEqual(4096);
    expect(run.steps[0]?.error).toBe(run.error);

    // 9 more of the kind (1 MB each, to keep the test short): listed together they stay small, where uncut ten
    // would be over 10 MB.
    let last = run;
    for (let index = 0; index < 9; index++) {
      const queued = await api.runAutomation({ session_id: session.id, script: { steps: [throwing(1)] } });
      last = await finished(queued.id);
      expect(last.error?.endsWith('… [cut]')).toBe(true);
    }
    const listing = await fetch(`${service.baseUrl}/v1/automation/status?limit=10`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    const body = await listing.text();
    console.log(`listing 10 runs with cut errors: ${body.length} bytes`);
    expect(listing.status).toBe(200);
    expect(JSON.parse(body).data).toHaveLength(10);
    expect(body.length).toBeLessThan(2 ** 18);

    let largest = 0;
    for (;;) {
      const event = await events.next((frame) => frame.data !== undefined);
      largest = Math.max(largest, event.data?.length ?? 0);
      const data = JSON.parse(event.data as string);
      if (data.type === 'run.finished' && data.data?.id === last.id) break;
    }
    events.close();
    console.log(`largest event: ${largest} bytes`);
    expect(largest).toBeLessThan(16 * 1024);
    await api.stopSession({ session_id: session.id });
  }, 240_000);
});
