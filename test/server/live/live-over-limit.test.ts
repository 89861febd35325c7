import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from '../../../lib/api/client';
import type { TestService } from '../../support/harness';
import { startServiceInProcess } from '../../support/in-process-service';

let service: TestService;

beforeAll(async () => {
  service = await startServiceInProcess();
});

afterAll(async () => {
  // The account has no request left to stop its session with: the service stops it on its way out.
  await service?.close();
});

describe('live view over the hourly limit', () => {
  it('closes the socket with 1013 and the plan’s sentence once the account’s requests are used up', async () => {
    const quota: { remaining: number | null } = { remaining: null };
    const free = createClient({
      baseUrl: service.baseUrl,
      apiKey: await service.createKey('free'),
      fetch,
      onQuota: (seen) => {
        quota.remaining = seen.remaining;
      },
    });
    const profile = await free.createProfile({ name: 'Watched too often' });
    const session = await free.startSession({ profile_id: profile.id, headless: true });
    while (quota.remaining !== 0) await free.getSession(session.id);

    const socket = new WebSocket(`${(session.live_view_url as string).replace(/^http/, 'ws')}/socket`);
    const first = new Promise((resolve) =>
      socket.once('message', (data) => resolve(JSON.parse(String(data)))),
    );
    const closed = new Promise<[number, string]>((resolve) =>
      socket.once('close', (code, reason) => resolve([code, String(reason)])),
    );
    const sentence =
      /^The free plan allows 100 requests an hour; the live view can open again in \d+ (minutes?|seconds?)\.$/;
    try {
      // The refusal is the first message: nothing of the session's view goes out before it.
      expect(await first).toEqual({ type: 'refused', detail: expect.stringMatching(sentence) });
      const [code, reason] = await closed;
      expect(code).toBe(1013);
      expect(reason).toMatch(sentence);
    } finally {
      socket.terminate();
    }
  });
});
