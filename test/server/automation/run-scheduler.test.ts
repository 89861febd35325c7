import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../lib/api/schemas/sessions';
import type { RunScriptOptions, RunScriptResult } from '../../../server/automation/runner';
import { createRunScheduler, type RunScheduler } from '../../../server/automation/scheduler';
import { systemClock } from '../../../server/core/clock';
import { loadConfig } from '../../../server/core/config';
import { createLogger } from '../../../server/core/log';
import type { Database } from '../../../server/db/driver';
import { createEventLog } from '../../../server/events/event-log';
import { createPublisher } from '../../../server/events/publisher';
import { createRoomQueue, type RoomQueue } from '../../../server/queue/room-queue';
import type { SessionManager } from '../../../server/sessions/manager';
import { createAccountWithKey } from '../../../server/store/accounts';
import { insertProfile } from '../../../server/store/profiles';
import { findRun } from '../../../server/store/runs';
import { everything } from '../../../server/store/scope';
import type { SessionRow } from '../../../server/store/sessions';
import { openScratchDatabase, type ScratchDatabase } from '../../support/scratch-database';

/*
 * The run scheduler alone, on a real PGlite database: the scripts it executes are the test's, each ending when the
 * test says, and the sessions it asks for are a stand-in (the runs never drive a browser).
 */

let scratch: ScratchDatabase;
let dataDir: string;
let db: Database;
let accountId: string;
let queue: RunScheduler;
let room: RoomQueue;
/** Each script the queue executed, in order: its first step's name, and how to end it. */
const executed: { name: string; finish(result: RunScriptResult): void }[] = [];
const arrivals: (() => void)[] = [];

const sessions = {
  start: async (_account: string, profileId: string) => ({ id: `ses_for_${profileId}` }) as SessionRow,
  devtoolsOf: () => null,
  localCdpUrl: (sessionId: string) => `ws://127.0.0.1:1/v1/sessions/${sessionId}/cdp/unused`,
  stop: async () => ({}) as Session,
  untilLossRecorded: async () => {},
} as unknown as SessionManager;

function execute(options: RunScriptOptions): Promise<RunScriptResult> {
  return new Promise((resolve) => {
    const step = options.script.steps[0] as { expression: string };
    executed.push({ name: step.expression, finish: resolve });
    arrivals.shift()?.();
  });
}

/** Resolves once the queue has started `count` scripts in all. */
function started(count: number): Promise<void> {
  if (executed.length >= count) return Promise.resolve();
  return new Promise((resolve) => arrivals.push(() => started(count).then(resolve)));
}

const script = (name: string) => ({ steps: [{ action: 'evaluate' as const, expression: name }] });
const succeeded: RunScriptResult = { status: 'succeeded', output: {}, error: null };

async function enqueue(profileId: string, name: string) {
  return queue.enqueue(
    everything(accountId),
    { id: 'key_test', name: 'Tester' },
    { profile_id: profileId, script: script(name) },
    async () => {},
  );
}

/** A queue on the test's database that executes the test's scripts (a drained queue takes no more). */
async function newQueue(): Promise<RunScheduler> {
  const log = createLogger({ write: () => {} });
  const limits = loadConfig({}).limits;
  const publisher = createPublisher();
  await room?.job.stop?.();
  const scheduler = createRunScheduler({
    db,
    clock: systemClock,
    log,
    limits,
    dataDir,
    sessions,
    events: createEventLog({ db, clock: systemClock, publisher }),
    run: execute,
  });
  room = createRoomQueue({
    db,
    clock: systemClock,
    log,
    nodeId: 'nod_alone',
    maxBrowsers: 8,
    roomHere: () => 8,
    caps: { enterprise: 8 },
    serveRun: scheduler.serveRun,
    serveStart: async () => 'no_room',
    failDeleted: scheduler.failDeleted,
  });
  await room.job.start?.(new AbortController().signal);
  return scheduler;
}

async function statusOf(runId: string) {
  return (await findRun(db, everything(accountId), runId))?.status;
}

beforeAll(async () => {
  scratch = await openScratchDatabase('queue');
  ({ db, dataDir } = scratch);
  accountId = (await createAccountWithKey(db, systemClock, { plan: 'enterprise' })).account_id;
  queue = await newQueue();
});

afterAll(async () => {
  await room?.job.stop?.();
  await queue?.drain();
  await scratch?.close();
});

describe('the run queue', () => {
  it('runs one profile’s scripts one at a time, in the order they came, and other profiles’ beside them', async () => {
    const shop = (await insertProfile(db, systemClock, accountId, { name: 'Shop' })).id;
    const mail = (await insertProfile(db, systemClock, accountId, { name: 'Mail' })).id;
    const first = await enqueue(shop, 'first');
    const second = await enqueue(shop, 'second');
    const third = await enqueue(shop, 'third');
    const beside = await enqueue(mail, 'beside');
    await started(2);
    expect(executed.map((run) => run.name).sort()).toEqual(['beside', 'first']);
    expect([await statusOf(second.id), await statusOf(third.id)]).toEqual(['queued', 'queued']);

    executed.find((run) => run.name === 'first')?.finish(succeeded);
    await started(3);
    expect(executed.at(-1)?.name).toBe('second');
    executed.at(-1)?.finish(succeeded);
    await started(4);
    expect(executed.at(-1)?.name).toBe('third');
    executed.at(-1)?.finish(succeeded);
    executed.find((run) => run.name === 'beside')?.finish(succeeded);
    await queue.drain();
    for (const run of [first, second, third, beside]) expect(await statusOf(run.id)).toBe('succeeded');
  });

  it('cancels a queued run before it starts: it never runs, and the one after it does', async () => {
    executed.length = 0;
    queue = await newQueue();
    const profile = (await insertProfile(db, systemClock, accountId, { name: 'Cancel' })).id;
    await enqueue(profile, 'running');
    const waiting = await enqueue(profile, 'cancelled while queued');
    const after = await enqueue(profile, 'after');
    await started(1);

    expect(await queue.cancel(everything(accountId), waiting.id)).toMatchObject({
      status: 'cancelled',
      error: 'The run was cancelled before it started.',
      started_at: null,
    });
    executed[0]?.finish(succeeded);
    await started(2);
    expect(executed.map((run) => run.name)).toEqual(['running', 'after']);
    executed[1]?.finish(succeeded);
    await queue.drain();
    expect(await statusOf(waiting.id)).toBe('cancelled');
    expect(await statusOf(after.id)).toBe('succeeded');
  });
});
