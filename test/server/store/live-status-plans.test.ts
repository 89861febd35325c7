import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../server/core/clock';
import type { Database } from '../../../server/db/driver';
import { createAccountWithKey } from '../../../server/store/accounts';
import { findActiveRunsOfNode, findOrphanedRuns } from '../../../server/store/node-runs';
import { nodesWithRoom, registerNode } from '../../../server/store/nodes';
import { listProfileEntries } from '../../../server/store/profile-page';
import {
  countProfiles,
  deleteIdleProfile,
  getProfile,
  getProfileLaunchSettings,
  insertProfile,
  listProfiles,
} from '../../../server/store/profiles';
import { executorOfProfile } from '../../../server/store/runs';
import { everything } from '../../../server/store/scope';
import {
  findLiveSessionsOfNode,
  findOrphanedSessions,
  findSessionOfProfile,
  insertStartingSession,
} from '../../../server/store/sessions';
import { genericPlan, statementsOf } from '../../support/statement-plans';
import { storeDatabases } from '../../support/store-databases';

/* A node keeps every session and run it ever had. The statements that look for the live ones must find them by
   the partial indexes on live sessions and active runs, in the generic plan a prepared statement settles on,
   and never read the whole history. */

const HISTORY = 20_000;

describe.each(storeDatabases('live-status-plans'))(
  'looking for live sessions and active runs, on $name',
  ({ open }) => {
    let db: Database;
    let close: () => Promise<void>;
    let accountId: string;
    let profileIds: string[];

    beforeAll(async () => {
      ({ db, close } = await open());
      accountId = (await createAccountWithKey(db, systemClock, { plan: 'premium' })).account_id;
      profileIds = [];
      for (let index = 0; index < 20; index++)
        profileIds.push((await insertProfile(db, systemClock, accountId, { name: `P${index}` } as never)).id);
      await registerNode(db, { id: 'node-a', url: 'http://127.0.0.1:1', capacity: 10 });
      await db.query(
        `insert into sessions (id, account_id, profile_id, status, headless, started_at, stopped_at, updated_at, node_id)
       select 'ses_old_' || g, $1, ($2::text[])[1 + g % 20], 'stopped', true, now(), now(), now(), 'node-a'
         from generate_series(1, ${HISTORY}) g`,
        [accountId, profileIds],
      );
      await db.query(
        `insert into automation_runs (id, account_id, profile_id, session_id, name, status, script, steps, created_at,
                                    node_id)
       select 'run_old_' || g, $1, ($2::text[])[1 + g % 20], 'ses_old_' || g, 'old', 'succeeded', '{}', '[]', now(),
              'node-a'
         from generate_series(1, ${HISTORY}) g`,
        [accountId, profileIds],
      );
      await insertStartingSession(db, systemClock, {
        accountId,
        holder: { id: 'key_test', name: 'Tester' },
        leaseTtlMs: 30_000,
        profileId: profileIds[0] as string,
        headless: true,
        cap: 5,
        nodeId: 'node-a',
      });
      await db.exec('analyze');
    }, 120_000);
    afterAll(() => close?.());

    it('reads neither the sessions nor the runs a node ever had', async () => {
      const [live, idle] = profileIds as [string, string];
      const page = { limit: 50, after: null };
      const sent = await statementsOf(db, async (spy) => {
        await listProfileEntries(spy, everything(accountId), page);
        await listProfileEntries(spy, everything(accountId), { ...page, q: 'p1' });
        await listProfiles(spy, everything(accountId), page);
        await listProfiles(spy, everything(accountId), { ...page, status: 'running' });
        await countProfiles(spy, everything(accountId), { status: 'idle' });
        await getProfile(spy, everything(accountId), idle);
        await getProfileLaunchSettings(spy, accountId, idle);
        expect(await deleteIdleProfile(spy, accountId, live)).toBe('running');
        await findSessionOfProfile(spy, accountId, idle);
        await findLiveSessionsOfNode(spy, 'node-a');
        await findOrphanedSessions(spy, 'node-a');
        await nodesWithRoom(spy, 'node-b', 15_000);
        await executorOfProfile(spy, idle);
        await findActiveRunsOfNode(spy, 'node-a');
        await findOrphanedRuns(spy);
      });
      const readingHistory: string[] = [];
      for (const { sql, params } of sent) {
        if (!/\b(sessions|automation_runs)\b/.test(sql)) continue;
        const plan = await genericPlan(db, sql, params);
        if (/Seq Scan on (sessions|automation_runs)\b/.test(plan)) readingHistory.push(`${sql}\n${plan}`);
      }
      expect(readingHistory).toEqual([]);
    });
  },
);
