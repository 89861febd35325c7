import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { processesWithUserDataDir } from '../../support/browser-fixtures';
import { JSON_HEADERS, requester } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

describe('a node told to stop', () => {
  it('turns unready, refuses new sessions with 503 and Retry-After, then stops its own and exits', async () => {
    const service = await startServiceInProcess();
    const key = await service.createKey('enterprise');
    const api = createClient({ baseUrl: service.baseUrl, apiKey: key, fetch });
    const request = requester(service.baseUrl, key);
    expect((await fetch(`${service.baseUrl}/readyz`)).status).toBe(200);
    const running = await api.createProfile({ name: 'Running at shutdown' });
    const waiting = await api.createProfile({ name: 'Asked for during shutdown' });
    await api.startSession({ profile_id: running.id, headless: true });

    const stopped = service.close();
    const [ready, start] = await Promise.all([
      fetch(`${service.baseUrl}/readyz`),
      request('POST', '/v1/sessions/start', {
        headers: JSON_HEADERS,
        body: JSON.stringify({ profile_id: waiting.id, headless: true }),
      }),
    ]);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'draining' });
    expect((await fetch(`${service.baseUrl}/healthz`)).status).toBe(200);
    expect(start.status).toBe(503);
    expect(start.headers.get('retry-after')).toBe('5');
    expect(await start.json()).toMatchObject({ detail: expect.stringMatching(/shutting down/) });

    await stopped;
    expect(processesWithUserDataDir(path.join(service.dataDir, 'profiles', running.id))).toEqual([]);
    const records = service.logs.map((line) => JSON.parse(line));
    expect(records.find((record) => record.msg === 'session stopped')).toMatchObject({
      reason: 'service_shutdown',
    });
    expect(records.at(-1)).toMatchObject({ msg: 'stopped' });
  });
});
