import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, httpTransport, ok, refOf, serveFormPage, snapshotOf } from '../../support/mcp-client';
import { postgresForTests } from '../../support/postgres-server';
import { clusterSuite } from '../../support/service-suite';

/*
 * Two processes on one PostgreSQL, room for one browser each: an agent's page tools reach a session through
 * either, and a snapshot's refs taken through one are good for a click through the other (they live beside the
 * browser, on the node that runs it).
 */

const bin = postgresForTests();
let site: Awaited<ReturnType<typeof serveFormPage>>;
let key: string;

describe.skipIf(!bin)('MCP page tools across the processes of a cluster', () => {
  // The form is served on loopback, which sessions reach only when the operator allows it.
  const cluster = clusterSuite(bin as string, { EGRESS_ALLOW: 'loopback' });
  beforeAll(async () => {
    site = await serveFormPage();
    key = await cluster.first.createKey('enterprise');
  });
  afterAll(() => site?.close());

  it('fills a form on a browser of one process through the other, refs and all', async () => {
    // One agent: its second connection, to the other process, carries the first one's Mcp-Session-Id.
    const toFirst = httpTransport(cluster.first.baseUrl, key);
    const onFirst = await connect(toFirst);
    const onSecond = await connect(httpTransport(cluster.second.baseUrl, key, [], toFirst.sessionId));
    const profile = await ok(onFirst, 'create_profile', { name: 'Clustered agent' });
    const session = await ok(onFirst, 'start_session', { profile_id: profile.id, headless: true });
    const session_id = session.id as string;

    await ok(onSecond, 'browser_navigate', { session_id, url: site.url });
    const snapshot = await snapshotOf(onSecond, session_id);
    await ok(onFirst, 'browser_type', {
      session_id,
      ref: refOf(snapshot, 'textbox', 'Email'),
      text: 'grace@example.com',
    });
    await ok(onSecond, 'browser_click', { session_id, ref: refOf(snapshot, 'button', 'Sign up') });
    expect(await snapshotOf(onFirst, session_id)).toContain('Welcome, grace@example.com');

    expect((await ok(onSecond, 'stop_session', { session_id })).status).toBe('stopped');
    await Promise.all([onFirst.close(), onSecond.close()]);
  });
});
