import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileCreate } from '../../../lib/api/inputs/profiles';
import type { Database } from '../../../server/db/driver';
import { createAccountWithKey } from '../../../server/store/accounts';
import { claimOrphanedRun, findOrphanedRuns } from '../../../server/store/node-runs';
import { leaveCluster, registerNode, removeLostNodes } from '../../../server/store/nodes';
import { insertProfile } from '../../../server/store/profiles';
import { finishRun, insertRun, markRunStarted, type RunRow } from '../../../server/store/runs';
import { findOrphanedSessions, insertStartingSession, markRunning } from '../../../server/store/sessions';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

/* What a lost node leaves behind, as the survivors' sweep finds it in the database. */

const clock = { now: () => new Date() };
let scratch: ScratchDatabase;
let db: Database;

beforeAll(async () => {
  scratch = await openScratchDatabase('orphans');
  db = scratch.db;
});
afterAll(() => scratch?.close());

describe('a lost node’s sessions and runs', () => {
  it('leave a session to be marked lost only once its running run has ended', async () => {
    const { account_id: accountId } = await createAccountWithKey(db, clock, { plan: 'enterprise' });
    const profile = await insertProfile(
      db,
      clock,
      accountId,
      ProfileCreate.parse({ name: 'On the lost node' }),
    );
    await registerNode(db, { id: 'node_lost', url: 'http://127.0.0.1:1', capacity: 2 });
    const started = await insertStartingSession(db, clock, {
      accountId,
      holder: { id: 'key_test', name: 'Tester' },
      leaseTtlMs: 30_000,
      profileId: profile.id,
      headless: true,
      cap: 10,
      nodeId: 'node_lost',
    });
    if (!('row' in started)) throw new Error(`refused: ${started.refused}`);
    const session = await markRunning(db, clock, started.row.id, { pid: 1 });
    const run = await insertRun(db, clock, {
      accountId,
      holder: { id: 'key_test', name: 'Tester' },
      profileId: profile.id,
      sessionId: session.id,
      name: null,
      script: { steps: [{ action: 'wait_for', ms: 60_000 }] },
      nodeId: 'node_lost',
    });
    await markRunStarted(db, clock, run.id, { sessionId: session.id, ownsSession: false });
    await leaveCluster(db, 'node_lost');

    // A sweep that finds the session stopped before its run is failed would show a stopped session's run
    // still running to whoever looks in between.
    const [orphan] = await findOrphanedRuns(db);
    expect(orphan?.id).toBe(run.id);
    expect(await findOrphanedSessions(db, 'node_sweeping')).toEqual([]);
    // Two survivors' sweeps find it at once: one takes it (to queue it again, its retry counted once).
    const claims = await Promise.all([
      claimOrphanedRun(db, orphan as RunRow),
      claimOrphanedRun(db, orphan as RunRow),
    ]);
    expect(claims.sort()).toEqual([false, true]);
    expect(await findOrphanedRuns(db)).toEqual([]);
    await finishRun(db, clock, run.id, { status: 'failed', output: {}, error: 'Lost with its machine.' });
    expect(await findOrphanedSessions(db, 'node_sweeping')).toMatchObject([
      { id: session.id, profile_name: 'On the lost node', status: 'running' },
    ]);
  });

  it('are never their own: a node that stalled past the limit does not declare itself lost, another does', async () => {
    for (const id of ['node_stalled', 'node_alone']) await registerNode(db, { id, url: '', capacity: 1 });
    await db.query(`update nodes set heartbeat_at = now() - interval '1 minute' where id = 'node_stalled'`);
    expect(await removeLostNodes(db, 'node_stalled', 15_000)).toEqual([]);
    expect(await removeLostNodes(db, 'node_alone', 15_000)).toEqual(['node_stalled']);
  });
});
