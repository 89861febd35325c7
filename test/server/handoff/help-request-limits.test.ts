import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../../../server/core/clock';
import { PlanLimit } from '../../../server/core/domain-errors';
import type { Database } from '../../../server/db/driver';
import { createEventLog } from '../../../server/events/event-log';
import { createPublisher } from '../../../server/events/publisher';
import { createHandoff, type Handoff, type HelpTarget } from '../../../server/handoff/handoff';
import { MAX_OPEN_REQUESTS } from '../../../server/handoff/handoff-errors';
import { createAccountWithKey } from '../../../server/store/accounts';
import { insertProfile } from '../../../server/store/profiles';
import { insertStartingSession, markRunning, markStopped } from '../../../server/store/sessions';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

/*
 * Requests for a person are bounded: an account waits on at most 50 at once, and those of a session that ended are
 * closed as withdrawn by the sweep (198 stayed open after their session stopped, listed at 517 KB). On a real
 * PGlite database, with the requests' tabs named by the test (no browser).
 */

let scratch: ScratchDatabase;
let db: Database;
let handoff: Handoff;
let accountId: string;

beforeAll(async () => {
  scratch = await openScratchDatabase('help-request-limits');
  db = scratch.db;
  const publisher = createPublisher();
  handoff = createHandoff({
    db,
    clock: systemClock,
    publisher,
    events: createEventLog({ db, clock: systemClock, publisher }),
  });
  ({ account_id: accountId } = await createAccountWithKey(db, systemClock, { plan: 'enterprise' }));
});
afterAll(() => scratch?.close());

async function runningSession(name: string): Promise<{ sessionId: string; profileId: string }> {
  const profile = await insertProfile(db, systemClock, accountId, { name });
  const started = await db.transaction((tx) =>
    insertStartingSession(tx, systemClock, {
      accountId,
      holder: { id: 'mem_test', name: 'Tester' },
      leaseTtlMs: 30_000,
      profileId: profile.id,
      headless: true,
      cap: 100,
      nodeId: 'node',
    }),
  );
  if (!('row' in started)) throw new Error('the session did not start');
  await markRunning(db, systemClock, started.row.id, { pid: 1 });
  return { sessionId: started.row.id, profileId: profile.id };
}

/** Opens a request on the tab and leaves it open (its asker does not wait). */
const ask = (target: HelpTarget) =>
  handoff.ask(target, { reason: 'sign in' }, { abandoned: AbortSignal.abort() });

it('keeps at most 50 open per account, refusing the next with 429 and a sentence', async () => {
  const session = await runningSession('Many tabs');
  const tab = (n: number): HelpTarget => ({ accountId, ...session, tabId: `tab-${n}`, runId: null });
  for (let n = 0; n < MAX_OPEN_REQUESTS; n++) expect((await ask(tab(n))).status).toBe('open');

  const refused = await ask(tab(MAX_OPEN_REQUESTS)).catch((error) => error);
  expect(refused).toBeInstanceOf(PlanLimit);
  expect(refused.problem).toMatchObject({
    status: 429,
    code: 'help_limit',
    detail: 'This account already waits for a person on 50 requests; answer or decline some first.',
  });

  // Their session ends: the sweep withdraws them, and the account may ask again.
  await markStopped(db, systemClock, session.sessionId, 'user');
  await handoff.expiry.start?.(new AbortController().signal);
  const rows = await db.query<{ outcome: string; count: number }>(
    `select outcome, count(*)::int as count from help_requests where account_id = $1 group by outcome`,
    [accountId],
  );
  expect(rows).toEqual([{ outcome: 'withdrawn', count: MAX_OPEN_REQUESTS }]);
  const next = await runningSession('Next');
  expect((await ask({ accountId, ...next, tabId: 'tab', runId: null })).status).toBe('open');
});
