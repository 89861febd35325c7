import { describe, expect, it } from 'vitest';
import type { QuotaSnapshot } from '../../../lib/api/rate-limit';
import {
  afterAnswer,
  afterFailure,
  afterRateLimit,
  EMPTY_HISTORY,
  FLOOR_MS,
  HOUR_MS,
  LONG_POLL_SECONDS,
  type PlanInput,
  type PollHistory,
  PROBE_MS,
  paidFor,
  planPoll,
  spacingFor,
} from '../../../lib/scheduling/watch-plan';

const NOW = Date.UTC(2025, 0, 6, 9);
const ONE = [{ id: 'run_1', version: 4 }];
const MANY = [...ONE, { id: 'run_2', version: 1 }, { id: 'run_3', version: 7 }];

function quota(
  limit: number | null,
  remaining: number | null,
  observedAt = NOW,
  resetSeconds = 60,
): QuotaSnapshot {
  return { limit, remaining, resetSeconds, observedAt };
}

function plan(input: Partial<PlanInput>) {
  const result = planPoll({ now: NOW, runs: ONE, quota: null, history: EMPTY_HISTORY, ...input });
  if (result.kind !== 'poll') throw new Error('expected a poll');
  return result;
}

/** The gap the planner leaves after one request, for a plan with `remaining` left. */
function gapAfterOne(remaining: number | null, limit: number | null = 100): number {
  const snapshot = quota(limit, remaining);
  const history = paidFor(EMPTY_HISTORY, NOW, snapshot);
  return plan({ quota: snapshot, history }).at - NOW;
}

describe('what to ask', () => {
  it('asks nothing, and plans nothing, while no run is followed', () => {
    expect(planPoll({ now: NOW, runs: [], quota: quota(100, 3), history: EMPTY_HISTORY })).toEqual({
      kind: 'idle',
    });
  });

  it('long-polls a single run after the version last seen, so one request waits for its next change', () => {
    expect(plan({}).request).toEqual({
      kind: 'run',
      runId: 'run_1',
      wait: LONG_POLL_SECONDS,
      afterVersion: 4,
    });
  });

  it('covers several runs with one list of the active runs', () => {
    expect(plan({ runs: MANY }).request).toEqual({ kind: 'recent' });
  });

  it('fetches, once each, the runs that left the recent list', () => {
    const history = { ...EMPTY_HISTORY, left: ['run_3'] };
    expect(plan({ runs: MANY, history }).request).toEqual({ kind: 'run', runId: 'run_3', wait: 0 });
  });
});

describe('when to ask: half of what remains of the hour', () => {
  it('asks at once when nothing was asked before', () => {
    expect(plan({ quota: quota(100, 100) }).at).toBe(NOW);
  });

  it('polls slowly on Free, briskly on Premium, and at the floor on Enterprise', () => {
    expect(gapAfterOne(99)).toBeCloseTo(HOUR_MS / 49.5, 0); // ≈ 73 s
    expect(gapAfterOne(999, 1000)).toBeCloseTo(HOUR_MS / 499.5, 0); // ≈ 7.2 s
    expect(gapAfterOne(null, null)).toBe(FLOOR_MS);
    expect(FLOOR_MS).toBeLessThanOrEqual(5_000);
  });

  it('polls at the floor before the service has said anything about the quota', () => {
    const history = paidFor(EMPTY_HISTORY, NOW, null);
    expect(plan({ history }).at - NOW).toBe(FLOOR_MS);
  });

  it('never plans more than half of what remains for the next hour', () => {
    for (let remaining = 2; remaining <= 1000; remaining++) {
      expect(HOUR_MS / spacingFor(remaining)).toBeLessThanOrEqual(remaining / 2 + 1e-9);
    }
  });

  it('slows down at once when the person spends: 40 left means one request every 3 minutes', () => {
    expect(gapAfterOne(40)).toBe(180_000);
  });

  it('trusts a snapshot older than the window no more: the whole limit is back', () => {
    const stale = quota(100, 3, NOW - HOUR_MS);
    const history = paidFor(EMPTY_HISTORY, NOW, stale);
    expect(plan({ quota: stale, history }).at - NOW).toBe(HOUR_MS / 50);
  });

  it('with fewer than 2 left, waits until the window frees a slot, and then looks only now and then', () => {
    for (const [resetSeconds, wait] of [
      [600, 600_000],
      [60, PROBE_MS],
    ] as const) {
      const low = quota(100, 1, NOW, resetSeconds);
      const history = paidFor(EMPTY_HISTORY, NOW, low);
      expect(plan({ quota: low, history }).at - NOW).toBe(wait);
    }
  });

  it('goes back to its pace as soon as an answer shows the quota freed again', () => {
    const low = quota(100, 1);
    const probed = paidFor(paidFor(EMPTY_HISTORY, NOW - PROBE_MS, low), NOW, quota(100, 60));
    expect(plan({ quota: quota(100, 60), history: probed }).at).toBe(NOW + spacingFor(60));
  });

  it('pays for a burst of fetches by waiting longer afterwards', () => {
    const snapshot = quota(100, 40);
    const spacing = spacingFor(40);
    let history: PollHistory = paidFor(EMPTY_HISTORY, NOW, snapshot); // the list
    history = { ...history, left: ['run_2', 'run_3'] };
    const first = plan({ runs: MANY, quota: snapshot, history });
    expect(first.at).toBe(NOW + FLOOR_MS);
    history = paidFor(afterAnswer(history, ['run_3']), first.at, snapshot);
    const second = plan({ runs: MANY, quota: snapshot, history });
    expect(second.request).toEqual({ kind: 'run', runId: 'run_3', wait: 0 });
    expect(second.at).toBe(first.at + FLOOR_MS);
    history = paidFor(afterAnswer(history, []), second.at, snapshot);
    // Three requests sent: the next list waits until three spacings from the first have passed.
    expect(plan({ runs: MANY, quota: snapshot, history }).at).toBe(NOW + 3 * spacing);
  });

  it('does not borrow for fetches that would take more than half of what remains', () => {
    const snapshot = quota(100, 3);
    const history = { ...paidFor(EMPTY_HISTORY, NOW, snapshot), left: ['run_2', 'run_3'] };
    expect(plan({ runs: MANY, quota: snapshot, history }).at).toBe(NOW + spacingFor(3));
  });
});

describe('when the service refuses or cannot be reached', () => {
  it('waits out a 429’s Retry-After, once, and a minute without one', () => {
    const limited = afterRateLimit(EMPTY_HISTORY, NOW, 90);
    expect(plan({ history: limited }).at).toBe(NOW + 90_000);
    expect(afterRateLimit(EMPTY_HISTORY, NOW, null).notBefore).toBe(NOW + 60_000);
  });

  it('backs off 5 s, doubling, up to 5 minutes, and forgets the failures after an answer', () => {
    let history = EMPTY_HISTORY;
    const waits: number[] = [];
    for (let i = 0; i < 8; i++) {
      history = afterFailure(history, NOW);
      waits.push(history.notBefore - NOW);
    }
    expect(waits).toEqual([5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
    expect(afterAnswer(history).failures).toBe(0);
    expect(afterFailure(afterAnswer(history), NOW).notBefore).toBe(NOW + 5_000);
  });
});
