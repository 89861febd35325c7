import { describe, expect, it } from 'vitest';
import { createClient } from '../../../lib/api/client';
import { postgresForTests } from '../../support/postgres-server';
import { clusterSuite } from '../../support/service-suite';

/*
 * Two processes on one PostgreSQL, room for one browser each: the session list and the thumbnail read through
 * the process that does not run the session show what the other one's browser shows, to the owner only.
 */

const bin = postgresForTests();

describe.skipIf(!bin)('what a session is doing, across the processes of a cluster', () => {
  const cluster = clusterSuite(bin as string, {});

  it('gives the current page and the picture of a session another process runs', async () => {
    const key = await cluster.first.createKey('enterprise');
    const first = createClient({ baseUrl: cluster.first.baseUrl, apiKey: key, fetch });
    const second = createClient({ baseUrl: cluster.second.baseUrl, apiKey: key, fetch });
    const profile = await first.createProfile({ name: 'Clustered' });
    const session = await first.startSession({ profile_id: profile.id, headless: true });
    try {
      // One of the two runs it; the other asks that one.
      for (const client of [first, second]) {
        const listed = (await client.listSessions({ status: 'running' })).data.find(
          (one) => one.id === session.id,
        );
        expect(listed?.current_page).toMatchObject({ url: 'about:blank' });
      }
      for (const baseUrl of [cluster.first.baseUrl, cluster.second.baseUrl]) {
        const picture = await fetch(`${baseUrl}/v1/sessions/${session.id}/thumbnail`, {
          headers: { Authorization: `Bearer ${key}` },
        });
        expect(picture.status).toBe(200);
        expect([...new Uint8Array(await picture.arrayBuffer()).slice(0, 2)]).toEqual([0xff, 0xd8]);
      }
      const stranger = await cluster.second.createKey('enterprise');
      const refused = await fetch(`${cluster.second.baseUrl}/v1/sessions/${session.id}/thumbnail`, {
        headers: { Authorization: `Bearer ${stranger}` },
      });
      expect(refused.status).toBe(404);
    } finally {
      await first.stopSession({ session_id: session.id });
    }
  });
});
