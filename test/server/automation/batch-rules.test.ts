import { describe, expect, it } from 'vitest';
import { estimatedFinish, toBatch } from '../../../server/automation/batch-summary';
import { isPassingFailure, retryAt } from '../../../server/automation/passing-failure';
import { fairShare } from '../../../server/queue/fair-share';
import type { BatchRow } from '../../../server/store/batches';

const NOW = new Date('2026-11-28T12:00:00Z');
const row = (more: Partial<BatchRow> = {}): BatchRow => ({
  seq: 1,
  id: 'bat_1',
  name: null,
  created_at: new Date('2026-11-28T11:59:00Z'),
  paused: false,
  counts: {},
  retried: 0,
  first_started_at: null,
  ...more,
});

describe('a batch summed up', () => {
  it('says what finished, what was retried, and what is left', () => {
    const batch = toBatch(
      row({
        counts: { succeeded: 7, failed: 1, queued: 2 },
        retried: 3,
        first_started_at: new Date('2026-11-28T11:59:20Z'),
      }),
      NOW,
    );
    expect(batch.summary).toBe('7 of 10 succeeded, 1 failed, 3 retried, 2 not finished yet');
    // 8 done in 40 s: 5 s each, so 2 more take 10 s.
    expect(batch.estimated_finish_at).toBe('2026-11-28T12:00:10.000Z');
    expect(batch.finished).toBe(false);
  });

  it('gives no estimate before a run finished, once done, or while paused', () => {
    expect(estimatedFinish(0, 5, NOW, NOW)).toBeNull();
    expect(estimatedFinish(5, 0, NOW, NOW)).toBeNull();
    const paused = toBatch(
      row({ paused: true, counts: { succeeded: 1, queued: 1 }, first_started_at: NOW }),
      NOW,
    );
    expect([paused.estimated_finish_at, paused.summary]).toEqual([
      null,
      '1 of 2 succeeded, 1 not finished yet (paused)',
    ]);
  });
});

describe('passing failures', () => {
  it('are a crashed browser, a lost node or a proxy that timed out, not a failing script', () => {
    expect(isPassingFailure({ error: 'Step 1 (goto) failed.', sessionEnd: 'browser_exited' })).toBe(true);
    expect(isPassingFailure({ error: null, sessionEnd: 'node_lost' })).toBe(true);
    expect(isPassingFailure({ error: 'the page did not load (net::ERR_TIMED_OUT)', sessionEnd: null })).toBe(
      true,
    );
    expect(isPassingFailure({ error: "no element matches 'h1'", sessionEnd: 'run_finished' })).toBe(false);
    expect(isPassingFailure({ error: '(net::ERR_NAME_NOT_RESOLVED)', sessionEnd: null })).toBe(false);
  });

  it('are retried twice, each after a longer wait', () => {
    expect(retryAt(0, NOW)?.getTime()).toBe(NOW.getTime() + 2000);
    expect(retryAt(1, NOW)?.getTime()).toBe(NOW.getTime() + 8000);
    expect(retryAt(2, NOW)).toBeNull();
  });
});

describe('the fair share of a node', () => {
  it('is three quarters of its browsers, at least one', () => {
    expect([1, 2, 3, 4, 8, 10].map(fairShare)).toEqual([1, 1, 2, 3, 6, 7]);
  });
});
