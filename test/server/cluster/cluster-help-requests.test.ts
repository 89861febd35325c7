import { describe, expect, it } from 'vitest';
import type { HelpRequest } from '../../../lib/api/schemas/help-requests';
import { createPeers, nodeAuthKey } from '../../../server/cluster/peers';
import { NotFound, ProfileHeld } from '../../../server/core/domain-errors';
import { createLogger } from '../../../server/core/log';
import { openPostgres } from '../../../server/db/postgres';
import { clusterSecret } from '../../../server/store/nodes';
import { JSON_HEADERS, requester } from '../../support/harness';
import { call, connect, httpTransport, ok, textOf } from '../../support/mcp-client';
import { postgresForTests } from '../../support/postgres-server';
import { clusterSuite } from '../../support/service-suite';

/*
 * Two processes on one PostgreSQL: an agent asks for a person through one, the person answers through the other,
 * and the agent's waiting call returns the answer at once, woken by the cluster's relay, not by its own periodic
 * re-read (5 s). The second time the agent asks through the process that does not run the browser: the tab is
 * found by the one that does. A refusal raised on the process that runs a browser reaches the other as itself.
 */

const bin = postgresForTests();

describe.skipIf(!bin)('two processes of a cluster', () => {
  const cluster = clusterSuite(bin as string, {});

  it('is made through one process and answered through the other', async () => {
    const key = await cluster.first.createKey('enterprise');
    const toFirst = httpTransport(cluster.first.baseUrl, key);
    const agent = await connect(toFirst);
    const profile = await ok(agent, 'create_profile', { name: 'Clustered shop' });
    const session = await ok(agent, 'start_session', { profile_id: profile.id, headless: true });
    const session_id = session.id as string;

    const asking = call(agent, 'request_human', { session_id, reason: 'enter the 2FA code' });
    const onSecond = requester(cluster.second.baseUrl, key);
    let request: HelpRequest | undefined;
    for (let tries = 0; tries < 100 && !request; tries++) {
      const listed = (await (await onSecond('GET', '/v1/help-requests?status=open')).json()) as {
        data: HelpRequest[];
      };
      request = listed.data[0];
      if (!request) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!request) throw new Error('the request made on the first process never showed on the second');
    expect(request).toMatchObject({ session_id, profile_name: 'Clustered shop', status: 'open' });

    const answeredAt = Date.now();
    const answered = await onSecond('POST', `/v1/help-requests/${request.id}/answer`, {
      body: JSON.stringify({ outcome: 'answer', text: '552 019' }),
      headers: JSON_HEADERS,
    });
    expect(answered.status).toBe(200);
    const result = await asking;
    const tookMs = Date.now() - answeredAt;
    expect(textOf(result)).toMatch(/^answer: the person wrote "552 019"\. /);
    console.info(
      `the agent's call on the first process returned ${tookMs} ms after the answer on the second`,
    );
    expect(tookMs).toBeLessThan(2_000);

    // The same agent (its Mcp-Session-Id) through the other process.
    const agentOnSecond = await connect(httpTransport(cluster.second.baseUrl, key, [], toFirst.sessionId));
    const askingThere = call(agentOnSecond, 'request_human', {
      session_id,
      reason: 'approve',
      choices: ['Yes', 'No'],
    });
    const onFirst = requester(cluster.first.baseUrl, key);
    let second: HelpRequest | undefined;
    for (let tries = 0; tries < 100 && !second; tries++) {
      const listed = (await (await onFirst('GET', '/v1/help-requests?status=open')).json()) as {
        data: HelpRequest[];
      };
      second = listed.data[0];
      if (!second) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!second) throw new Error('the request made on the second process never showed on the first');
    // The same tab as the agent's first request: the agent's tab lives beside its browser, under its session id.
    expect(second.tab_id).toBe(request.tab_id);
    await onFirst('POST', `/v1/help-requests/${second.id}/answer`, {
      body: JSON.stringify({ outcome: 'choice', choice: 'Yes' }),
      headers: JSON_HEADERS,
    });
    expect(textOf(await askingThere)).toMatch(/^choice: the person chose "Yes"\. /);

    expect((await ok(agent, 'stop_session', { session_id })).status).toBe('stopped');
    await Promise.all([agent.close(), agentOnSecond.close()]);
  });

  it('hands a refusal from one process to the other as the same error, status and sentence', async () => {
    const key = await cluster.first.createKey('enterprise');
    const onFirst = requester(cluster.first.baseUrl, key);
    const account = (await (await onFirst('GET', '/v1/account')).json()) as { id: string };
    const created = await onFirst('POST', '/v1/profiles', {
      headers: JSON_HEADERS,
      body: JSON.stringify({ name: 'Refused twice' }),
    });
    const profile = (await created.json()) as { id: string };
    const started = await onFirst('POST', '/v1/sessions/start', {
      headers: JSON_HEADERS,
      body: JSON.stringify({ profile_id: profile.id, headless: true }),
    });
    expect(started.status).toBe(201);
    const session = (await started.json()) as { id: string };

    // A node of its own that asks the others, over the very wire the processes use between them.
    const db = await openPostgres(cluster.databaseUrl);
    try {
      const secret = await clusterSecret(db, Buffer.alloc(32));
      const peers = createPeers({
        db,
        nodeId: 'asking-node',
        authKey: nodeAuthKey(secret),
        log: createLogger({ write: () => {} }),
        lostAfterMs: 15_000,
      });

      const missing = await peers
        .startElsewhere(account.id, 'prf_none', { id: 'mem_test', name: 'Tester' }, true)
        .catch((error) => error);
      expect(missing).toBeInstanceOf(NotFound);
      expect(missing.problem).toMatchObject({
        status: 404,
        code: 'not_found',
        detail: 'There is no profile with this id.',
      });

      // Another member's start of a profile the owner holds: refused there, 409 here, with who holds it.
      const twice = await peers
        .startElsewhere(account.id, profile.id, { id: 'mem_test', name: 'Tester' }, true)
        .catch((error) => error);
      expect(twice).toBeInstanceOf(ProfileHeld);
      expect(twice.problem).toMatchObject({
        status: 409,
        code: 'profile_held',
        extensions: { held_by: { session_id: session.id } },
      });
    } finally {
      await db.close();
      await onFirst('DELETE', '/v1/sessions/stop', {
        headers: JSON_HEADERS,
        body: JSON.stringify({ session_id: session.id }),
      });
    }
  });
});
