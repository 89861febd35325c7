import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../../lib/scheduling/watch-plan';
import { HOURLY_LIMITS } from '../../../server/accounts/plans';
import { type Figures, SCENARIOS, STREAM_SCENARIOS, simulate } from '../../bench/watcher-simulation';

/** The longest a run may end unnoticed, per plan and number of runs followed (seconds). */
const NOTICE_BOUND_S: Record<string, number> = {
  'free 1': 4 * 60,
  'free 5': 16 * 60,
  'premium 1': 60,
  'premium 5': 60,
  'enterprise 1': 45,
  'enterprise 5': 45,
};

// A test simulates the hours it needs that no test before it did: up to three, depending on the order the tests run
// in, each tens of seconds on a loaded machine.
describe('the watcher over a virtual hour (worker ended when idle and at random, the person clicking)', {
  timeout: 180_000,
}, () => {
  const results = new Map<string, Promise<Figures>>();
  const figures = (plan: string, runs: number, stream = false) => {
    const key = `${plan} ${runs}${stream ? ' stream' : ''}`;
    const scenario = (stream ? STREAM_SCENARIOS : SCENARIOS).find((s) => s.plan === plan && s.runs === runs);
    if (!scenario) throw new Error(`no scenario ${key}`);
    if (!results.has(key)) results.set(key, simulate(scenario));
    return results.get(key) as Promise<Figures>;
  };

  it.each(SCENARIOS)(
    '$plan plan, $runs run(s): no 429, the budget kept, every end noticed once and soon',
    async ({ plan, runs }) => {
      const f = await figures(plan, runs);
      const limit = HOURLY_LIMITS[plan];
      expect(f.rateLimited).toBe(0);
      expect(f.runsEnded).toBeGreaterThanOrEqual(runs);
      expect(f.runsNoticed).toBe(f.runsEnded);
      expect(f.announcedTwice).toBe(0);
      expect(f.longestNoticeMs).toBeLessThanOrEqual((NOTICE_BOUND_S[`${plan} ${runs}`] as number) * 1000);
      expect(f.workerStarts).toBeGreaterThan(1);
      if (limit !== null) {
        // Never more than half of the plan in any rolling hour, and the person always had a good part left.
        expect(f.watcherPeakHour).toBeLessThanOrEqual(limit / 2);
        expect(f.personLeastLeft).toBeGreaterThanOrEqual(limit * 0.25);
      } else {
        // Unlimited: a few seconds apart at the closest.
        expect(f.watcherRequests).toBeLessThanOrEqual(HOUR_MS / 3_000);
      }
    },
  );

  it('polls more briskly the larger the plan', async () => {
    const free = await figures('free', 5);
    const premium = await figures('premium', 5);
    const enterprise = await figures('enterprise', 5);
    expect(free.watcherRequests).toBeLessThan(premium.watcherRequests);
    expect(premium.watcherRequests).toBeLessThan(enterprise.watcherRequests);
    expect(free.meanNoticeMs).toBeGreaterThan(premium.meanNoticeMs);
  });

  it.each(STREAM_SCENARIOS)(
    '$plan plan, $runs run(s) on the event stream: no 429, every end noticed once, sooner and for fewer requests',
    async ({ plan, runs }) => {
      const streamed = await figures(plan, runs, true);
      const polled = await figures(plan, runs);
      expect(streamed.rateLimited).toBe(0);
      expect(streamed.runsNoticed).toBe(streamed.runsEnded);
      expect(streamed.announcedTwice).toBe(0);
      // The model's answers take 40 ms: an end is noticed as its event arrives.
      expect(streamed.longestNoticeMs).toBeLessThanOrEqual(1000);
      expect(streamed.longestNoticeMs).toBeLessThanOrEqual(polled.longestNoticeMs);
      expect(streamed.watcherRequests).toBeLessThanOrEqual(polled.watcherRequests);
    },
  );
});
