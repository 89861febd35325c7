import type { ProxyCheckJob } from '../../lib/api/schemas/proxy-fleet';
import type { Clock } from '../core/clock';
import type { EgressPolicy } from '../core/egress-policy';
import type { Job } from '../core/lifecycle';
import type { Logger } from '../core/log';
import type { Database } from '../db/driver';
import type { EventLog } from '../events/event-log';
import { getProxy, recordProxyCheck } from '../store/proxies';
import { proxiesToCheck, recordCheckProgress, startCheckJob } from '../store/proxy-check-jobs';
import { requireCheckUrl, tryProxy } from './proxy-operations';

/** Checks one job makes at once: quick through hundreds, few enough not to crowd the host's network. */
const CHECKS_AT_ONCE = 16;
/** A job's progress is written and told (`proxies.checking`) at most this often, and at its end. */
const PROGRESS_EVERY_MS = 1_000;

export interface ProxyCheckDeps {
  db: Database;
  clock: Clock;
  events: EventLog;
  log: Logger;
  checkUrl: string | null;
  egress: EgressPolicy;
}

export type ProxyChecks = ReturnType<typeof createProxyChecks>;

/**
 * Check all: a job per account that checks every saved proxy, CHECKS_AT_ONCE at a time, each result kept as the
 * proxy's last check (`proxy.updated`) and the job's progress kept in the database for any node to read. The
 * jobs of this process end at shutdown as `interrupted`.
 */
export function createProxyChecks(deps: ProxyCheckDeps) {
  const { db, clock, events, log } = deps;
  const stopping = new AbortController();
  const running = new Set<Promise<void>>();

  async function checkEvery(accountId: string, jobId: string, lastSeq: number): Promise<void> {
    const checkUrl = requireCheckUrl(deps.checkUrl);
    const waiting = await proxiesToCheck(db, accountId, lastSeq);
    const made = { checked: 0, failing: 0 };
    let toldAt = clock.now().getTime();
    const tell = async (state?: 'done' | 'interrupted') => {
      const counted = { ...made };
      made.checked = 0;
      made.failing = 0;
      toldAt = clock.now().getTime();
      await events.writeWithEvents(async (tx, emit) => {
        const job = await recordCheckProgress(tx, clock, jobId, counted, state);
        if (job) await emit(accountId, 'proxies.checking', job);
      });
    };
    const checker = async () => {
      for (let next = waiting.shift(); next && !stopping.signal.aborted; next = waiting.shift()) {
        const proxy = next;
        const answer = await tryProxy({ checkUrl, egress: deps.egress }, proxy);
        await events.writeWithEvents(async (tx, emit) => {
          await recordProxyCheck(tx, clock, accountId, proxy.id, answer);
          const saved = await getProxy(tx, accountId, proxy.id);
          if (saved) await emit(accountId, 'proxy.updated', saved);
        });
        made.checked += 1;
        if (!answer.ok) made.failing += 1;
        if (clock.now().getTime() - toldAt >= PROGRESS_EVERY_MS) await tell();
      }
    };
    await Promise.all(Array.from({ length: CHECKS_AT_ONCE }, checker));
    await tell(stopping.signal.aborted ? 'interrupted' : 'done');
  }

  return {
    /** Starts checking every proxy of the account, or answers the check already under way. */
    async start(accountId: string): Promise<ProxyCheckJob> {
      requireCheckUrl(deps.checkUrl);
      const started = await events.writeWithEvents(async (tx, emit) => {
        const begun = await startCheckJob(tx, clock, accountId);
        if (begun.created) await emit(accountId, 'proxies.checking', begun.job);
        return begun;
      });
      if (started.created) {
        const work = checkEvery(accountId, started.job.id, started.lastSeq)
          .catch(async (error: unknown) => {
            log.error('proxy check job failed', { job: started.job.id, error });
            await recordCheckProgress(db, clock, started.job.id, { checked: 0, failing: 0 }, 'interrupted');
          })
          .catch(() => undefined)
          .finally(() => running.delete(work));
        running.add(work);
      }
      return started.job;
    },
    job: {
      name: 'proxy checks',
      stop: async () => {
        stopping.abort();
        await Promise.all(running);
      },
    } satisfies Job,
  };
}
