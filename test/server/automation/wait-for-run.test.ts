import { describe, expect, it } from 'vitest';
import { waitForRun } from '../../../server/automation/wait-for-run';
import type { Queryable } from '../../../server/db/driver';
import { createPublisher, runTopic } from '../../../server/events/publisher';
import type { RunRow } from '../../../server/store/runs';

const running = { id: 'run_1', account_id: 'acc_1', status: 'running' } as RunRow;
const finished = (run: RunRow) => run.status === 'succeeded' || run.status === 'failed';

describe('a long poll on a run', () => {
  it('answers a change committed while it was reading the run, not at its deadline', async () => {
    const publisher = createPublisher();
    const states: RunRow['status'][] = ['running', 'succeeded'];
    // The run's last step and its end are committed (and published) while the poll reads it after a wake.
    const db: Queryable = {
      async query<T>() {
        const status = states.shift() ?? 'succeeded';
        if (status === 'running') publisher.publish(runTopic(running.id));
        return [{ ...running, status }] as T[];
      },
      exec: async () => {},
    };
    const began = Date.now();
    const answered = await waitForRun(
      { db, publisher },
      running,
      finished,
      began + 10_000,
      new AbortController().signal,
    );
    expect(answered.status).toBe('succeeded');
    expect(Date.now() - began).toBeLessThan(2_000);
  });

  it('answers the run as it is at the deadline when nothing changes', async () => {
    const publisher = createPublisher();
    const db: Queryable = { query: async <T>() => [running] as T[], exec: async () => {} };
    const answered = await waitForRun(
      { db, publisher },
      running,
      finished,
      Date.now() + 50,
      new AbortController().signal,
    );
    expect(answered.status).toBe('running');
  });
});
