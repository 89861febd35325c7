import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createClient } from '../../../lib/api/client';
import { OPENINGS_PER_CLIENT } from '../../../server/http/viewer-budget';
import { serviceSuite } from '../../support/service-suite';

/*
 * A view-only live link, shared with anyone, opened again and again: the openings are counted on the viewers'
 * own budget, never against the owner's hourly limit, and the owner can always stop the session.
 */

const suite = serviceSuite({ plan: 'enterprise' });

/** Opens the view-only socket and answers its first message (or the close that came instead). */
function openOnce(pageUrl: string): Promise<{ type: string; detail?: string }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(`${pageUrl.replace(/^http/, 'ws')}/socket`);
    socket.once('message', (data) => {
      resolve(JSON.parse(String(data)));
      socket.terminate();
    });
    socket.once('close', (code) => resolve({ type: `closed ${code}` }));
    socket.once('error', () => {});
  });
}

describe('a shared view-only live link', () => {
  it('opened 110 times leaves the owner’s hourly limit alone, and the owner can still read and stop', async () => {
    const quota: { remaining: number | null } = { remaining: null };
    const owner = createClient({
      baseUrl: suite.service.baseUrl,
      apiKey: await suite.service.createKey('free'),
      fetch,
      onQuota: (seen) => {
        quota.remaining = seen.remaining;
      },
    });
    const profile = await owner.createProfile({ name: 'Shared' });
    const session = await owner.startSession({ profile_id: profile.id, headless: true });
    await owner.getAccount();
    const before = quota.remaining as number;

    const answers: { type: string; detail?: string }[] = [];
    for (let opened = 0; opened < 110; opened++)
      answers.push(await openOnce(session.live_view_readonly_url as string));
    expect(answers.slice(0, OPENINGS_PER_CLIENT).every((answer) => answer.type !== 'refused')).toBe(true);
    expect(answers.at(-1)).toEqual({
      type: 'refused',
      detail: expect.stringMatching(
        /^This address opened 60 view-only live views in the last hour; the next one is possible in \d+ (minutes|seconds)\.$/,
      ),
    });

    // One request, this read: none of the 110 openings was the owner's.
    await owner.getAccount();
    expect(quota.remaining).toBe(before - 1);

    // And over the hourly limit, stopping is still possible.
    while (quota.remaining !== 0) await owner.getAccount();
    expect(await owner.stopSession({ session_id: session.id })).toMatchObject({ status: 'stopped' });
  }, 120_000);
});
